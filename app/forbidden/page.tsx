export default function ForbiddenPage() {
  return (
    <main className="mx-auto max-w-xl px-6 py-16">
      <h1 className="text-2xl font-semibold">Not allowed</h1>
      <p className="mt-2 text-slate-700">Your account does not have the role this page needs. Ask an admin.</p>
    </main>
  );
}
