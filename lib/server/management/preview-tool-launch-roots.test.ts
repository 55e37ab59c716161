// The tool preview pseudonymizes (personalLaunchFields) from the identity roots, which are read
// asynchronously: opened first in a fresh process, before any launch or Data API read, it still
// shows the pseudonym a launch would carry, never an error.
import { beforeAll, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { forgetLoadedIdentityRoots } from "@/lib/server/crypto/identity-root";
import { createTestTool } from "@/test/fixtures/launch";
import { setupTestDatabase } from "@/test/database";
import { previewToolLaunch } from "./preview-tool-launch";
import { setToolSharing } from "./set-tool-sharing";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";

setupTestDatabase();
let f: TManagementFixture;

beforeAll(async () => {
  process.env.HUB_SECRET = "preview-tool-launch-roots-secret-0123456789";
  resetEnvCache();
  f = await createManagementFixture();
});

it("the tool preview loads the identity roots itself: the anonymized name is a pseudonym, not an error", async () => {
  const tool = await createTestTool();
  await db().edtechLink.create({ data: { institutionId: f.networkId, edtechId: tool.edtechId } });
  await db().placement.create({ data: { toolId: tool.id, institutionId: f.school1.id, roles: [] } });
  const rules = { nome_usuario: "anonimizado", idade: "nao_compartilhado", cpf: "nao_compartilhado", email_usuario: "nao_compartilhado", telefone: "nao_compartilhado" } as const;
  await setToolSharing({ scope: f.manager1, settings: { institutionId: f.school1.id, toolId: tool.id, rules } });
  forgetLoadedIdentityRoots();
  const preview = await previewToolLaunch({ scope: f.manager1, institutionId: f.school1.id, toolId: tool.id, profileId: f.school1.studentId });
  expect(preview.status).toBe("ok");
  if (preview.status !== "ok") return;
  expect(preview.fields).toEqual([["lis_person_name_full", expect.stringMatching(/^Usuário [0-9a-f]{8}$/)]]);
});
