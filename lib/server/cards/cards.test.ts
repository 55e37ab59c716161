// Sign-in cards (issue #19): who may print a class's cards, what a print revokes, and every way a
// card signs in or is refused — all through the services the routes call.
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { openSession, sessionCookie } from "@/lib/server/auth/session-cookie";
import type { CurrentUser } from "@/lib/server/auth/current-user";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import { setupTestDatabase } from "@/test/database";
import { fromWebRequest, toWebResponse } from "@/lib/server/http/plain-endpoint";
import { issueClassCards } from "./issue-class-cards";
import { requireCardClass } from "./require-card-class";
import { respondCardSignIn } from "./respond-card-sign-in";
import { revokeCard } from "./revoke-card";
import { saveCardSettings } from "./save-card-settings";
import { signInWithCard } from "./sign-in-with-card";
import { renderCardsPdf } from "./render-cards-pdf";
import { renderCardSheet } from "./render-card-sheet";

setupTestDatabase();
let f: TManagementFixture;

const user = (personId: string, profileId: string, role: "gestor" | "professor" | "aluno", institutionId: string): CurrentUser => ({
  personId,
  name: "x",
  profile: { id: profileId, role, institution: { id: institutionId, name: "", kind: "school" } },
});
const tokenOf = (url: string) => url.split("/cracha/")[1]!;

beforeAll(async () => {
  f = await createManagementFixture();
});

async function printSchool1() {
  const cls = await requireCardClass({ user: user(f.manager1.personId, f.manager1.profileId, "gestor", f.school1.id), classId: f.school1.classId });
  return { cls, cards: await issueClassCards({ cls, actorPersonId: f.manager1.personId }) };
}

describe("who may print a class's cards", () => {
  it("the school's manager and the network's manager; another school's manager gets a 404", async () => {
    await expect(requireCardClass({ user: user(f.manager1.personId, f.manager1.profileId, "gestor", f.school1.id), classId: f.school1.classId })).resolves.toMatchObject({ name: "7º A", periodCode: "2026" });
    await expect(requireCardClass({ user: user(f.network.personId, f.network.profileId, "gestor", f.networkId), classId: f.school1.classId })).resolves.toMatchObject({ id: f.school1.classId });
    await expect(requireCardClass({ user: user(f.manager2.personId, f.manager2.profileId, "gestor", f.school2.id), classId: f.school1.classId })).rejects.toMatchObject({ code: "not_found" });
    await expect(requireCardClass({ user: user(f.manager1.personId, f.manager1.profileId, "gestor", f.school1.id), classId: "not-a-uuid" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("a teacher of the class, not a teacher of the school who does not teach it", async () => {
    const teacher = await db().profile.findUniqueOrThrow({ where: { id: f.school1.teacherId } });
    const asTeacher = user(teacher.personId, teacher.id, "professor", f.school1.id);
    await expect(requireCardClass({ user: asTeacher, classId: f.school1.classId })).rejects.toMatchObject({ code: "not_found" });
    await assignTeacher({ classId: f.school1.classId, subjectId: f.school1.subjectId, teacherId: teacher.id });
    await expect(requireCardClass({ user: asTeacher, classId: f.school1.classId })).resolves.toMatchObject({ id: f.school1.classId });
  });
});

describe("printing and signing in", () => {
  it("issues one card per student, stores only the token's hash, and the card signs the student in", async () => {
    const { cards } = await printSchool1();
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ profileId: f.school1.studentId, name: "Aluno Escola Um" });
    const token = tokenOf(cards[0]!.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db().signInCard.findMany({ where: { profileId: f.school1.studentId } });
    expect(JSON.stringify(rows)).not.toContain(token);
    const card = rows.find((row) => !row.revokedAt)!;
    expect(card.lastUsedAt).toBeNull();
    const result = await signInWithCard({ token, address: "127.0.0.1" });
    expect(result).toEqual({ ok: true, token: expect.objectContaining({ sub: f.school1.studentPersonId, profileId: f.school1.studentId }) });
    const audit = await db().auditLog.findFirst({ where: { action: "card.sign_in", institutionId: f.school1.id, targetId: card.id } });
    expect(audit).toMatchObject({ actorPersonId: f.school1.studentPersonId, targetType: "sign_in_card", edtechId: null, details: { profileId: f.school1.studentId, address: "127.0.0.1" } });
    // The card's last use is written with the audit row.
    expect((await db().signInCard.findUniqueOrThrow({ where: { id: card.id } })).lastUsedAt).toEqual(audit!.createdAt);
  });

  it("a reprint revokes the previous card; one active card per profile", async () => {
    const first = await printSchool1();
    const second = await printSchool1();
    expect(await signInWithCard({ token: tokenOf(first.cards[0]!.url), address: null })).toEqual({ ok: false, reason: "substituido" });
    expect((await signInWithCard({ token: tokenOf(second.cards[0]!.url), address: null })).ok).toBe(true);
    expect(await db().signInCard.count({ where: { profileId: f.school1.studentId, revokedAt: null } })).toBe(1);
    // The database holds the rule too: a second active card is refused.
    await expect(db().signInCard.create({ data: { profileId: f.school1.studentId, tokenHash: "x".repeat(64) } })).rejects.toThrow();
  });

  it("revoking one student's card refuses it; another school's manager cannot", async () => {
    const { cards } = await printSchool1();
    await expect(revokeCard({ scope: f.manager2, profileId: f.school1.studentId })).rejects.toMatchObject({ code: "not_found" });
    await revokeCard({ scope: f.manager1, profileId: f.school1.studentId });
    expect(await signInWithCard({ token: tokenOf(cards[0]!.url), address: null })).toEqual({ ok: false, reason: "substituido" });
    await expect(revokeCard({ scope: f.manager1, profileId: f.school1.studentId })).rejects.toMatchObject({ code: "conflict" });
  });

  it("outside the institution's networks the card is refused, and the refusal is logged", async () => {
    const { cards } = await printSchool1();
    const token = tokenOf(cards[0]!.url);
    await saveCardSettings({ scope: f.manager1, institutionId: f.school1.id, networks: "10.20.0.0/16\n2001:db8::/32", studentsOnly: true });
    expect(await signInWithCard({ token, address: "127.0.0.1" })).toEqual({ ok: false, reason: "rede" });
    // A refusal is audited, and is not a use of the card.
    const refusedCard = await db().signInCard.findFirstOrThrow({ where: { profileId: f.school1.studentId, revokedAt: null } });
    expect(refusedCard.lastUsedAt).toBeNull();
    expect(await db().auditLog.findFirst({ where: { action: "card.refused", targetId: refusedCard.id } })).toMatchObject({ details: { reason: "rede", address: "127.0.0.1" } });
    expect(await signInWithCard({ token, address: null })).toEqual({ ok: false, reason: "rede" });
    expect((await signInWithCard({ token, address: "::ffff:10.20.3.4" })).ok).toBe(true);
    expect(await db().auditLog.count({ where: { action: "card.refused", institutionId: f.school1.id } })).toBeGreaterThanOrEqual(2);
    await saveCardSettings({ scope: f.manager1, institutionId: f.school1.id, networks: "", studentsOnly: true });
  });

  it("a card of a profile that is not a student is refused while the institution allows students only", async () => {
    const teacher = await db().profile.findUniqueOrThrow({ where: { id: f.school2.teacherId } });
    const card = await db().signInCard.create({ data: { profileId: teacher.id, tokenHash: (await import("@/lib/oauth/secret")).hashSecret("T".repeat(43)) } });
    expect(await signInWithCard({ token: "T".repeat(43), address: null })).toEqual({ ok: false, reason: "perfil" });
    await saveCardSettings({ scope: f.manager2, institutionId: f.school2.id, networks: "", studentsOnly: false });
    expect((await signInWithCard({ token: "T".repeat(43), address: null })).ok).toBe(true);
    await db().signInCard.delete({ where: { id: card.id } });
  });

  it("the settings refuse what is not a range, with the field named", async () => {
    await expect(saveCardSettings({ scope: f.manager1, institutionId: f.school1.id, networks: "escola.example", studentsOnly: true })).rejects.toMatchObject({
      code: "bad_request",
      fields: { cardNetworks: expect.stringContaining("escola.example") },
    });
    await expect(saveCardSettings({ scope: f.manager2, institutionId: f.school1.id, networks: "", studentsOnly: true })).rejects.toMatchObject({ code: "not_found" });
  });

  it("unknown tokens are throttled per address", async () => {
    for (let i = 0; i < 30; i++) expect(await signInWithCard({ token: `unknown-${i}`, address: "203.0.113.7" })).toEqual({ ok: false, reason: "desconhecido" });
    const { cards } = await printSchool1();
    expect(await signInWithCard({ token: tokenOf(cards[0]!.url), address: "203.0.113.7" })).toEqual({ ok: false, reason: "tentativas" });
    expect((await signInWithCard({ token: tokenOf(cards[0]!.url), address: "203.0.113.8" })).ok).toBe(true);
  });
});

describe("GET /cracha/{token}", () => {
  const cardAddress = async (request: NextRequest, token: string) => toWebResponse(await respondCardSignIn(fromWebRequest(request), { token }));

  it("sets the session cookie and goes to the gallery; a refusal goes to its page without a cookie", async () => {
    const { cards } = await printSchool1();
    const ok = await cardAddress(new NextRequest(cards[0]!.url, { headers: { "x-hub-client-address": "127.0.0.1" } }), tokenOf(cards[0]!.url));
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/");
    const cookie = ok.headers.get("set-cookie") ?? "";
    const value = cookie.match(new RegExp(`${sessionCookie().name}=([^;]+)`))?.[1];
    expect(await openSession(value)).toMatchObject({ sub: f.school1.studentPersonId, profileId: f.school1.studentId });
    const refused = await cardAddress(new NextRequest("http://localhost/cracha/x"), "x");
    expect(refused.headers.get("location")).toBe("/cracha/recusado?motivo=desconhecido");
    expect(refused.headers.get("set-cookie")).toBeNull();
  });
});

describe("the printed sheet and the PDF", () => {
  it("show each card's name, class and QR code, with the name escaped", async () => {
    const { cls } = await printSchool1();
    const cards = [{ profileId: "p", name: "Ana <b>&", url: "http://localhost:3000/cracha/" + "a".repeat(43) }];
    const pdf = await renderCardsPdf({ cls, cards });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const html = renderCardSheet({ cls, cards, pdf, backHref: "/gestao" });
    expect(html).toContain("Ana &lt;b&gt;&amp;");
    expect(html).not.toContain("<b>&");
    expect(html).toContain("Turma 7º A · 2026");
    expect(html).toMatch(/<svg[^>]+aria-label="Código QR do crachá de Ana &lt;b&gt;&amp;"/);
    expect(html).toContain("data:application/pdf;base64,JVBER");
  });
});
