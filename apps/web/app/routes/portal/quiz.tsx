import { requireStudentToken } from "../../guards.ts";

export function clientLoader() {
  requireStudentToken();
  return null;
}

export const meta = () => [{ title: "Quiz | Trainwise" }];

export default function Page() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold capitalize">quiz</h1>
    </div>
  );
}
