import { db } from "@/lib/server/db/database";
import { ZIdSchema, ZToolSharingSchema, type TToolSharingInput } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import { saveSharingRule } from "./save-sharing-rule";
import type { TManagerScope } from "./resolve-manager-scope";

/**
 * Chooses, for one tool at an institution, the rule per personal attribute its launches follow
 * (allowed, anonymized, not shared) — the same rules as an application's — or, with `remove`,
 * drops the institution's own rule so the ancestors' applies again (none: nothing personal is
 * sent). The tool's edtech must have a contract with the institution or an ancestor. Audited with
 * the before and after values.
 */
export async function setToolSharing(
  options: { scope: TManagerScope } & ({ settings: TToolSharingInput } | { remove: { institutionId: string; toolId: string } }),
): Promise<void> {
  const target =
    "settings" in options
      ? ZToolSharingSchema.parse(options.settings)
      : { institutionId: ZIdSchema.parse(options.remove.institutionId), toolId: ZIdSchema.parse(options.remove.toolId), rules: null };
  const institution = requireInReach({ scope: options.scope, institutionId: target.institutionId });
  const tool = await db().tool.findUnique({ where: { id: target.toolId }, select: { id: true, edtechId: true, title: true } });
  await saveSharingRule({
    scope: options.scope,
    institutionId: institution.id,
    partner: tool && { kind: "tool", id: tool.id, name: tool.title, edtechId: tool.edtechId },
    notFound: "Ferramenta não encontrada entre as edtechs vinculadas.",
    rules: target.rules,
    roles: "roles" in target ? target.roles : {},
    store: (toolId) => {
      const where = { institutionId_toolId: { institutionId: institution.id, toolId } };
      return {
        find: (tx) => tx.toolSharing.findUnique({ where }),
        upsert: (tx, rule) => tx.toolSharing.upsert({ where, create: { institutionId: institution.id, toolId, ...rule }, update: rule }),
        remove: (tx) => tx.toolSharing.delete({ where }),
      };
    },
  });
}
