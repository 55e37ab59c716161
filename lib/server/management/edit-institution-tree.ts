import { recordAudit } from "@/lib/server/audit/record-audit";
import { AppError } from "@/lib/errors";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { moveInstitution } from "@/lib/server/institutions/move-institution";
import { updateInstitution } from "@/lib/server/institutions/update-institution";
import { ZInstitutionCommandSchema, type TInstitutionCommand } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Creates, renames or moves institutions inside the manager's subtree. The manager's own
 * institution may be renamed but not moved (its parent is outside the reach), and a move must
 * land under an institution the manager also reaches. Each change is audited.
 */
export async function editInstitutionTree(options: { scope: TManagerScope; command: TInstitutionCommand }): Promise<{ id: string }> {
  const command = ZInstitutionCommandSchema.parse(options.command);
  const { scope } = options;
  return transaction(async (tx) => {
    let id: string;
    let details: Record<string, string>;
    switch (command.type) {
      case "create": {
        requireInReach({ scope, institutionId: command.parentId });
        id = (await createInstitution({ name: command.name, kind: command.kind, parentId: command.parentId }, { tx })).id;
        details = { name: command.name, kind: command.kind, parentId: command.parentId };
        break;
      }
      case "rename": {
        requireInReach({ scope, institutionId: command.institutionId });
        id = (await updateInstitution({ institutionId: command.institutionId, name: command.name }, { tx })).id;
        details = { name: command.name };
        break;
      }
      case "move": {
        const moved = requireInReach({ scope, institutionId: command.institutionId });
        if (moved.id === scope.rootId) throw new AppError("forbidden", "A sua própria instituição não pode ser movida daqui.");
        const target = scope.institutions.find((i) => i.id === command.parentId);
        if (!target) throw new AppError("bad_request", "Escolha uma instituição superior da sua gestão.", { parentId: "Escolha uma instituição da sua gestão" });
        id = (await moveInstitution({ institutionId: moved.id, parentId: target.id }, { tx })).id;
        details = { from: moved.parentId ?? "", to: target.id };
        break;
      }
    }
    await recordAudit(tx, { actorPersonId: scope.personId, action: `institution.${command.type}`, targetType: "institution", targetId: id, institutionId: id, details });
    return { id };
  });
}
