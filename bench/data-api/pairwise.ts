// Cost of pairwise ids on the Data API's hot path (docs/performance.md, "Pairwise ids"): the
// rewrite of a 1,000-event page of usuario records (3 person ids each: event, id, pessoaId) and
// of turmaAluno records (3: event, id, alunoId), against the attribute filter alone on the same
// records. No database: the permutation gets a random key, as each partner's is.
//
//   npx tsx bench/data-api/pairwise.ts
import { randomBytes, randomUUID } from "node:crypto";
import { UuidPermutation } from "@/lib/server/crypto/uuid-permutation";
import { recordTextFilter } from "@/lib/server/data-api/privacy";
import { rewritePersonEvents, type TPersonEvent } from "@/lib/server/privacy/pairwise-records";
import type { TPairwiseIds } from "@/lib/server/privacy/pairwise-ids";

const permutation = new UuidPermutation(randomBytes(32));
const ids: TPairwiseIds = {
  partner: { kind: "application", id: randomUUID() },
  toPartner: (id) => permutation.forward([id])[0]!,
  toPartnerMany: (list) => permutation.forward(list),
  toGlobal: (id) => permutation.inverse([id])[0]!,
};

const school = randomUUID();
const klass = randomUUID();
const usuario = (): TPersonEvent => ({
  eventId: randomUUID(),
  record: `{"id": "${randomUUID()}", "cpf": "52998224725", "idade": "2012-03-04", "perfil": "aluno", "pessoaId": "${randomUUID()}", "telefone": "11987654321", "nome_usuario": "Ana Beatriz Souza", "email_usuario": "ana.souza@escola.test", "instituicaoId": "${school}"}`,
});
const turmaAluno = (): TPersonEvent => ({
  eventId: randomUUID(),
  record: `{"id": "${randomUUID()}", "alunoId": "${randomUUID()}", "turmaId": "${klass}", "codigoPeriodo": "2026"}`,
});

function time(label: string, rounds: number, fn: () => void): number {
  for (let i = 0; i < 20; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const p50 = samples[Math.floor(samples.length / 2)]!;
  console.log(`${label.padEnd(58)} p50 ${p50.toFixed(2)} ms  p99 ${samples[Math.floor(samples.length * 0.99)]!.toFixed(2)} ms`);
  return p50;
}

const rounds = 300;
const usuarioPage = Array.from({ length: 1000 }, usuario);
const turmaAlunoPage = Array.from({ length: 1000 }, turmaAluno);
const filter = recordTextFilter({ allowed: ["nome_usuario", "idade", "email_usuario"], anonymized: ["email_usuario"] }, randomUUID());

// The filter pseudonymizes: its root is loaded by the channel in the app; here a stand-in.
const { loadedIdentityRoot } = await import("@/lib/server/crypto/identity-root");
if (!loadedIdentityRoot("pseudonym")) {
  const { setDatabase, createDatabase } = await import("@/lib/server/db/database");
  const { applyMigrations } = await import("@/lib/server/db/migrate");
  const { loadIdentityRoots } = await import("@/lib/server/crypto/identity-root");
  process.env.HUB_SECRET ??= "bench-pairwise-secret-0123456789abcdef";
  const db = createDatabase({ dataDir: "memory://" });
  await applyMigrations(db.sql);
  setDatabase(db);
  await loadIdentityRoots();
}

console.log(`1,000-event pages, ${rounds} rounds each (Node ${process.version})`);
const filterOnly = time("usuario: attribute filter only", rounds, () => usuarioPage.map((e) => filter(e.record)));
const both = time("usuario: attribute filter + pairwise ids (3,000 ids)", rounds, () =>
  rewritePersonEvents(ids, "usuario", usuarioPage.map((e) => ({ eventId: e.eventId, record: filter(e.record) }))),
);
const links = time("turmaAluno: pairwise ids (3,000 ids)", rounds, () => rewritePersonEvents(ids, "turmaAluno", turmaAlunoPage));
const aes = time("the permutation alone, 3,000 ids in one batch", rounds, () => permutation.forward(usuarioPage.flatMap((e) => [e.eventId, e.eventId, e.eventId])));
console.log(`pairwise ids add ${(both - filterOnly).toFixed(2)} ms to a usuario page, ${links.toFixed(2)} ms to a turmaAluno page (permutation ${aes.toFixed(2)} ms)`);
