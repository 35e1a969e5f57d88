import { requireAdminToken } from "../../guards.ts";

export function clientLoader() {
  requireAdminToken();
  return null;
}

export const meta = () => [{ title: "Admin | Trainwise" }];

export default function Page() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="text-3xl font-bold capitalize">Admin submit feedback</h1>
    </div>
  );
}
