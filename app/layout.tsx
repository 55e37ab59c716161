import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { listProfiles } from "@/lib/server/auth/list-profiles";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Hub Educacional", template: "%s · Hub Educacional" },
  description: "Um acesso para estudantes, professores, responsáveis e gestores, com as ferramentas educacionais parceiras.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = await getCurrentUser();
  const profiles = user ? await listProfiles({ personId: user.personId }) : [];
  return (
    <html lang="pt-BR">
      <body className="flex min-h-screen flex-col">
        <SiteHeader user={user} profiles={profiles} />
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">{children}</main>
        <SiteFooter />
      </body>
    </html>
  );
}
