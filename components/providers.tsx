"use client";
import type { Session } from "next-auth";
import { SessionProvider } from "next-auth/react";
import type { ReactNode } from "react";

/**
 * The server's session is handed over so useSession() starts "authenticated" instead of
 * "loading": next-auth's update() silently does nothing while loading, so a profile chosen
 * right after the page appeared would otherwise be ignored.
 */
export function Providers({ session, children }: { session: Session | null; children: ReactNode }) {
  return (
    <SessionProvider session={session} refetchOnWindowFocus={false}>
      {children}
    </SessionProvider>
  );
}
