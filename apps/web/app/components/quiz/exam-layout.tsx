import { brand } from "@trainwise/contract/brand";
import { Outlet } from "react-router";

/**
 * The frame of a timed quiz: the company's name and the exam, nothing else. No site menu, footer or chat button,
 * so no single tap leaves the exam while its clock runs.
 */
export default function ExamLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 px-4 py-3">
        <p className="mx-auto max-w-3xl text-lg font-bold text-brand-900">{brand.name}</p>
      </header>
      <main id="main" className="flex-1">
        <Outlet />
      </main>
    </div>
  );
}
