import Link from "@/components/link";
import type { ReactNode } from "react";

const CHIP = "inline-block rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-brand-900 hover:border-brand-600";

/**
 * A titled row of link chips on the home page ("Minhas turmas", "Usadas recentemente"). `page`
 * links go through Next's client navigation; the others (a launch, answered by a route handler)
 * are plain links.
 */
export function ChipLinks({ id, title, landmark, items }: {
  id: string;
  title: string;
  landmark: "nav" | "section";
  items: Array<{ key: string; href: string; label: ReactNode; page: boolean }>;
}) {
  if (items.length === 0) return null;
  const Landmark = landmark;
  return (
    <Landmark aria-labelledby={`${id}-title`} className="mt-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold">{title}</h2>
      <ul className="mt-2 flex flex-wrap gap-2">
        {items.map((item) => (
          <li key={item.key}>
            {item.page ? <Link href={item.href} className={CHIP}>{item.label}</Link> : <a href={item.href} className={CHIP}>{item.label}</a>}
          </li>
        ))}
      </ul>
    </Landmark>
  );
}
