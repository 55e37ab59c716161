import Link from "@/components/link";

/** The two views of the institution's log: what reached partners, and who changed the rules. */
export function AccessLogTabs({ institutionId, current }: { institutionId: string; current: "acessos" | "regras" }) {
  const base = `/gestao/${institutionId}/acessos`;
  const tabs = [
    ["acessos", base, "Acessos aos dados"],
    ["regras", `${base}/regras`, "Mudanças nas regras"],
  ] as const;
  return (
    <nav aria-label="Registros" className="flex gap-2 text-sm">
      {tabs.map(([key, href, label]) => (
        <Link
          key={key}
          href={href}
          aria-current={key === current ? "page" : undefined}
          className={`rounded-md border px-3 py-1.5 ${key === current ? "border-brand-600 bg-brand-50 font-semibold text-brand-700" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}
