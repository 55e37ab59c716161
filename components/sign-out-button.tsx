"use client";
import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl: "/" })} className="rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-100">
      Sair
    </button>
  );
}
