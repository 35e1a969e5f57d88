import { useEffect } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: React.ReactNode }) {
  // Marks the document once React runs it. A prerendered page shows its buttons before then, and they do nothing
  // until hydration (which waits for the first paint): the journeys wait for this mark before they press anything.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#174a96" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white font-sans text-slate-900 antialiased">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Shown by the SPA shell while a client-only page (portal, admin) loads. */
export function HydrateFallback() {
  return (
    <p className="p-8 text-center" role="status">
      Loading...
    </p>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto max-w-xl p-8 text-center">
      <h1 className="text-2xl font-semibold">{notFound ? "Page not found" : "Something went wrong"}</h1>
      <p className="mt-4">
        {notFound ? "The page you asked for does not exist." : "Please reload the page or try again later."}
      </p>
      <a className="mt-6 inline-block text-brand-700 underline" href="/">
        Back to the home page
      </a>
    </main>
  );
}
