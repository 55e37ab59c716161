"use client";
import { useState } from "react";

/**
 * A secret the hub will never show again (client secret, API key, generated shared secret):
 * selectable, copyable, with the warning next to it.
 */
export function ShownOnceSecret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const id = `secret-${label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-4">
      <label htmlFor={id} className="block text-sm font-semibold text-amber-900">
        {label}
      </label>
      <div className="mt-2 flex gap-2">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} className="w-full rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-sm" />
        <button
          type="button"
          className="shrink-0 rounded-md border border-amber-400 bg-white px-3 py-2 text-sm font-medium hover:bg-amber-100"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value);
              setCopied(true);
            } catch {
              setCopied(false);
            }
          }}
        >
          {copied ? "Copiado" : "Copiar"}
        </button>
      </div>
      <p className="mt-2 text-sm text-amber-900">Copie agora e guarde em local seguro: o Hub não mostrará este valor novamente.</p>
    </div>
  );
}
