/** Ends the session with a plain form post (POST /sair), scripts or not. */
export function SignOutButton() {
  return (
    <form method="post" action="/sair">
      <button type="submit" className="rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-100">
        Sair
      </button>
    </form>
  );
}
