import { db } from "@/lib/server/db/database";
import { decryptSecret } from "@/lib/server/crypto/secret-box";
import { SANDBOX_EMAIL_DOMAIN, SANDBOX_PASSWORD_PURPOSE } from "./sandbox-people";

export interface TSandboxView {
  edtechId: string;
  edtechName: string;
  sandbox: null | {
    institutionId: string;
    name: string;
    createdAt: Date;
    password: string;
    schools: Array<{ id: string; name: string }>;
    /** A few sign-ins per role, to try OAuth and launches as a student, a teacher and a guardian. */
    logins: Array<{ name: string; email: string; role: string }>;
  };
}

/** Every edtech of the person, each with its sandbox (when one was created) and how to sign in to it. */
export async function getSandboxes(options: { personId: string }): Promise<TSandboxView[]> {
  const memberships = await db().edtechMember.findMany({ where: { personId: options.personId }, include: { edtech: true }, orderBy: { edtech: { name: "asc" } } });
  const sandboxes = await db().sandbox.findMany({ where: { edtechId: { in: memberships.map((m) => m.edtechId) } } });
  const views: TSandboxView[] = [];
  for (const { edtech } of memberships) {
    const row = sandboxes.find((s) => s.edtechId === edtech.id);
    if (!row) {
      views.push({ edtechId: edtech.id, edtechName: edtech.name, sandbox: null });
      continue;
    }
    const [network, schools] = await Promise.all([
      db().institution.findUniqueOrThrow({ where: { id: row.institutionId }, select: { name: true } }),
      db().institution.findMany({ where: { parentId: row.institutionId }, orderBy: { name: "asc" }, select: { id: true, name: true } }),
    ]);
    const logins = [];
    for (const role of ["aluno", "professor", "responsavel"] as const) {
      const profile = await db().profile.findFirst({
        where: { role, institutionId: { in: schools.map((s) => s.id) }, person: { email: { endsWith: `@${SANDBOX_EMAIL_DOMAIN}` }, passwordHash: { not: null } } },
        orderBy: { createdAt: "asc" },
        select: { person: { select: { name: true, email: true } } },
      });
      if (profile?.person.email) logins.push({ name: profile.person.name, email: profile.person.email, role });
    }
    views.push({
      edtechId: edtech.id,
      edtechName: edtech.name,
      sandbox: { institutionId: row.institutionId, name: network.name, createdAt: row.createdAt, password: decryptSecret(row.passwordSealed, SANDBOX_PASSWORD_PURPOSE), schools, logins },
    });
  }
  return views;
}
