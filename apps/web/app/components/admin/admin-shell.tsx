/** An admin page's title and content; the header, navigation and Logout are the admin layout's. */
export function AdminShell({ title, children }: { title: string; token?: string; children: React.ReactNode }) {
  return (
    <>
      <h1 className="text-2xl font-bold text-brand-900 sm:text-3xl">{title}</h1>
      <div className="mt-6">{children}</div>
    </>
  );
}
