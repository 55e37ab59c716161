import Link from "@/components/link";

/**
 * Why a sign-in did not happen (a card's, an upstream account's): what happened and what to do,
 * announced at once, with the way back to the password sign-in.
 */
export function SignInRefusal({ reason, linkLabel }: { reason: { title: string; text: string }; linkLabel: string }) {
  return (
    <section className="mx-auto max-w-lg" aria-labelledby="sign-in-refused-title">
      <div role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-6">
        <h1 id="sign-in-refused-title" className="text-2xl font-bold text-slate-900">{reason.title}</h1>
        <p className="mt-3 text-slate-800">{reason.text}</p>
      </div>
      <p className="mt-6 text-sm">
        <Link href="/login" className="font-medium text-brand-700 underline">{linkLabel}</Link>
      </p>
    </section>
  );
}
