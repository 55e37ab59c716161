// The OneRoster 1.2 CSV import of /gestao: a zip read (read-zip.ts), every row resolved against the
// manager's subtree and checked, then — only when no row has a problem — every change written
// through the school-data services in ONE transaction (each emits its ChangeEvent, so the Data
// API, webhooks and counts see it). Rules: docs/oneroster.md, "CSV (OneRoster 1.2)".
//
// The reads and the writes share the transaction, so what was checked is what is written. A
// record that already says what the row says is not written at all: importing the zip the Hub
// exported writes no event.
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/client";
import { joinName, parseAcademicSession, parseClass, parseCourse, parseDemographics, parseEnrollment, parseOrg, parseRole, parseUser, type TCsvFile } from "@/lib/oneroster/csv-binding";
import { transaction, type Tx } from "@/lib/server/db/transaction";
import { subtreeOf } from "@/lib/server/institution-tree/subtree-of";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { deleteClass } from "@/lib/server/school-data/delete-class";
import { deletePeriod } from "@/lib/server/school-data/delete-period";
import { deleteProfile } from "@/lib/server/school-data/delete-profile";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import { unassignTeacher } from "@/lib/server/school-data/unassign-teacher";
import { unenrollStudent } from "@/lib/server/school-data/unenroll-student";
import { unlinkGuardian } from "@/lib/server/school-data/unlink-guardian";
import { updateClass } from "@/lib/server/school-data/update-class";
import { updatePeriod } from "@/lib/server/school-data/update-period";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { ZCpf, ZPhone } from "@/lib/validations/school-data";
import { z } from "zod";
import { requireInReach } from "../require-in-reach";
import type { TManagerScope } from "../resolve-manager-scope";
import type { TImportResult } from "../run-import";
import type { TImportProgress, TRowError } from "../validate-import";
import { readOneRosterZip, type TCsvTable } from "./read-zip";

const LIMITS = { timeout: 10 * 60_000, maxWait: 60_000 } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const SHIFTS = ["manha", "tarde", "noite", "integral"] as const;
const fold = (s: string) => s.normalize("NFC").trim().toLowerCase();
const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/** OneRoster role → the Hub's profile role. Others (aide, counselor, proctor…) have no profile in the Hub. */
const HUB_ROLE: Readonly<Record<string, Role>> = {
  student: "aluno",
  teacher: "professor",
  guardian: "responsavel",
  parent: "responsavel",
  relative: "responsavel",
  siteAdministrator: "gestor",
  districtAdministrator: "gestor",
  administrator: "gestor",
  principal: "gestor",
};

/** The import page's kind for a OneRoster zip (beside the spreadsheet kinds of lib/validations/management.ts). */
export const ONEROSTER_IMPORT_KIND = "oneroster";

class Rollback extends Error {}

/** Something planned: an existing id, or one the write step creates (resolved by the time it is used). */
type TRef = { id: string } | { pending: () => string };
const idOf = (ref: TRef) => ("id" in ref ? ref.id : ref.pending());

export async function importOneRoster(options: {
  scope: TManagerScope;
  institutionId: string;
  zip: Uint8Array;
  dryRun?: boolean;
  onProgress?: (progress: TImportProgress) => void;
}): Promise<TImportResult> {
  const root = requireInReach(options);
  const pkg = readOneRosterZip(options.zip);
  if (!pkg.ok) return { ok: false, total: 0, fileErrors: pkg.fileErrors, rowErrors: [] };
  const subtree = subtreeOf({ institutions: options.scope.institutions, rootId: root.id });
  let outcome: TImportResult | null = null;
  try {
    await transaction(async (tx) => {
      const run = new ImportRun(tx, root.id, subtree, pkg.modes, pkg.tables, pkg.total, options.onProgress);
      await run.plan();
      if (run.errors.size > 0 || run.fileErrors.length > 0) {
        outcome = { ok: false, total: pkg.total, fileErrors: run.fileErrors, rowErrors: run.rowErrors() };
        throw new Rollback();
      }
      if (options.dryRun) {
        outcome = { ok: true, total: pkg.total, imported: 0 };
        throw new Rollback();
      }
      await run.write();
      outcome = { ok: true, total: pkg.total, imported: pkg.total };
    }, LIMITS);
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return outcome!;
}

interface TPlannedPeriod {
  ref: TRef;
  institutionId: string;
  code: string;
  name: string;
  startsOn: string;
  endsOn: string;
  create: boolean;
}

interface TPlannedUser {
  file: "users";
  line: number;
  personRef: TRef;
  /** The person's profiles in the subtree (already there or planned), by `${role}|${institutionId}`. */
  profiles: Map<string, TRef>;
  /** A Hub profile id given as sourcedId: the profile that must stay. */
  ownProfileId: string | null;
  mapped: boolean;
  editable: boolean;
}

class ImportRun {
  readonly errors = new Map<string, { file: TCsvFile; line: number; messages: string[] }>();
  readonly fileErrors: string[] = [];
  private readonly inSubtree: Set<string>;
  private readonly kindOf: Map<string, "network" | "school">;
  private done = 0;
  private readonly writes: (() => Promise<unknown>)[] = [];
  private readonly deletes: (() => Promise<unknown>)[] = [];
  private readonly mappings: { type: string; sourcedId: string; ref: TRef }[] = [];
  private readonly mapped = new Map<string, string>();

  // Resolutions, by the file's sourcedIds.
  private readonly orgs = new Map<string, string>();
  private readonly sessions = new Map<string, { line: number; title: string; startsOn: string; endsOn: string; code: string; hubPeriodId: string | null }>();
  private readonly periodsByKey = new Map<string, TPlannedPeriod>();
  private readonly courses = new Set<string>();
  private readonly classes = new Map<string, { ref: TRef; institutionId: string; subjects: TRef[]; subjectRefs: Map<string, TRef> }>();
  private readonly subjectsByKey = new Map<string, TRef>();
  private readonly users = new Map<string, TPlannedUser>();
  private readonly personByEmail = new Map<string, string>();

  constructor(
    private readonly tx: Tx,
    private readonly rootId: string,
    subtree: { id: string; kind: "network" | "school"; name: string }[],
    private readonly modes: Record<TCsvFile, "bulk" | "delta" | "absent">,
    private readonly tables: Partial<Record<TCsvFile, TCsvTable>>,
    private readonly total: number,
    private readonly onProgress?: (progress: TImportProgress) => void,
  ) {
    this.inSubtree = new Set(subtree.map((i) => i.id));
    this.kindOf = new Map(subtree.map((i) => [i.id, i.kind]));
    this.subtreeByName = new Map<string, string[]>();
    for (const i of subtree) this.subtreeByName.set(fold(i.name), [...(this.subtreeByName.get(fold(i.name)) ?? []), i.id]);
  }
  private readonly subtreeByName: Map<string, string[]>;

  private fail(file: TCsvFile, line: number, column: string | null, message: string): void {
    const key = `${file}:${line}`;
    const entry = this.errors.get(key) ?? { file, line, messages: [] };
    entry.messages.push(column ? `coluna ${column}: ${message}` : message);
    this.errors.set(key, entry);
  }

  rowErrors(): TRowError[] {
    const order: TCsvFile[] = ["orgs", "academicSessions", "courses", "classes", "users", "roles", "enrollments", "demographics"];
    return [...this.errors.values()]
      .sort((a, b) => order.indexOf(a.file) - order.indexOf(b.file) || a.line - b.line)
      .map((e) => ({ file: `${e.file}.csv`, line: e.line, messages: e.messages }));
  }

  private tick(): void {
    this.done++;
    if (this.done % 500 === 0 || this.done === this.total) this.onProgress?.({ phase: "validando", done: this.done, total: this.total });
  }

  private rows(file: TCsvFile) {
    return this.tables[file]?.rows ?? [];
  }

  private async loadMappings(): Promise<void> {
    const rows = await this.tx.oneRosterSourcedId.findMany({ where: { institutionId: this.rootId }, select: { type: true, sourcedId: true, hubId: true } });
    for (const row of rows) this.mapped.set(`${row.type}\0${row.sourcedId}`, row.hubId);
  }

  private remember(type: string, sourcedId: string, ref: TRef): void {
    if (this.mapped.has(`${type}\0${sourcedId}`)) return;
    if (UUID.test(sourcedId) && "id" in ref && ref.id === sourcedId) return;
    this.mapped.set(`${type}\0${sourcedId}`, "pending");
    this.mappings.push({ type, sourcedId, ref });
  }

  private lookup(type: string, sourcedId: string): string | undefined {
    const id = this.mapped.get(`${type}\0${sourcedId}`);
    return id === "pending" ? undefined : id;
  }

  // ------------------------------------------------------------ planning (reads only)

  async plan(): Promise<void> {
    this.onProgress?.({ phase: "validando", done: 0, total: this.total });
    await this.loadMappings();
    this.planOrgs();
    await this.planSessions();
    this.planCourses();
    await this.planClasses();
    await this.planUsers();
    await this.planDemographics();
    await this.planEnrollments();
    this.planBulkDeletes();
    await this.planAgents();
    this.queueDeletes();
    this.onProgress?.({ phase: "validando", done: this.total, total: this.total });
  }

  /** An org of the file or of the subtree, by sourcedId (a Hub id, a mapped SIS id, or an org row of this file). */
  private org(sourcedId: string): string | undefined {
    if (this.orgs.has(sourcedId)) return this.orgs.get(sourcedId);
    if (this.inSubtree.has(sourcedId)) return sourcedId;
    const mapped = this.lookup("org", sourcedId);
    return mapped && this.inSubtree.has(mapped) ? mapped : undefined;
  }

  private planOrgs(): void {
    for (const { line, cells } of this.rows("orgs")) {
      this.tick();
      const org = parseOrg(cells);
      if (org.status === "tobedeleted") {
        this.fail("orgs", line, "status", "o Hub não exclui instituições por arquivo; exclua-a em Instituições");
        continue;
      }
      let id = this.org(org.sourcedId);
      if (!id) {
        const byName = this.subtreeByName.get(fold(org.name)) ?? [];
        if (byName.length === 1) {
          id = byName[0]!;
          this.remember("org", org.sourcedId, { id });
        }
      }
      if (!id) {
        this.fail("orgs", line, "sourcedId", `a organização "${org.name}" (${org.sourcedId}) não está nesta rede. O Hub não cria instituições a partir de um arquivo: cadastre-a em Instituições ou use o nome exato de uma instituição existente`);
        continue;
      }
      this.orgs.set(org.sourcedId, id);
    }
  }

  private async planSessions(): Promise<void> {
    const hubPeriods = new Map(
      (await this.tx.period.findMany({ where: { institutionId: { in: [...this.inSubtree] } }, select: { id: true, institutionId: true, code: true, name: true, startsOn: true, endsOn: true } })).map((p) => [p.id, p]),
    );
    for (const p of hubPeriods.values()) {
      this.periodsByKey.set(`${p.institutionId}|${p.code}`, { ref: { id: p.id }, institutionId: p.institutionId, code: p.code, name: p.name, startsOn: day(p.startsOn)!, endsOn: day(p.endsOn)!, create: false });
    }
    this.hubPeriods = hubPeriods;
    for (const { line, cells } of this.rows("academicSessions")) {
      this.tick();
      const s = parseAcademicSession(cells);
      const hub = hubPeriods.get(s.sourcedId);
      if (s.status === "tobedeleted") {
        if (hub) this.periodDeletes.add(hub.id);
        continue;
      }
      let ok = true;
      if (s.type !== "schoolYear") {
        this.fail("academicSessions", line, "type", `"${s.type}" não é aceito: o Hub guarda só anos letivos (type schoolYear). Deixe fora do arquivo os bimestres, semestres e períodos de avaliação`);
        ok = false;
      }
      if (!/^\d{4}$/.test(s.schoolYear)) ok = this.bad("academicSessions", line, "schoolYear", "informe o ano com 4 dígitos, como 2026");
      if (!DAY.test(s.startDate)) ok = this.bad("academicSessions", line, "startDate", "data inválida (use AAAA-MM-DD)");
      if (!DAY.test(s.endDate)) ok = this.bad("academicSessions", line, "endDate", "data inválida (use AAAA-MM-DD)");
      if (ok && s.startDate > s.endDate) ok = this.bad("academicSessions", line, "endDate", "o fim vem antes do início");
      if (!s.title) ok = this.bad("academicSessions", line, "title", "informe o nome do ano letivo");
      if (!ok) continue;
      if (hub && hub.code !== s.schoolYear) {
        this.fail("academicSessions", line, "schoolYear", `o período ${hub.name} é do ano ${hub.code}; o Hub não muda o ano de um período`);
        continue;
      }
      this.sessions.set(s.sourcedId, { line, title: s.title, startsOn: s.startDate, endsOn: s.endDate, code: s.schoolYear, hubPeriodId: hub?.id ?? null });
      if (hub) this.touchPeriod(hub.institutionId, s.sourcedId);
    }
  }
  private hubPeriods = new Map<string, { id: string; institutionId: string; code: string; name: string }>();
  private readonly periodDeletes = new Set<string>();
  private readonly coveredPeriods = new Set<string>();
  private readonly periodUpdates = new Set<string>();

  private bad(file: TCsvFile, line: number, column: string, message: string): false {
    this.fail(file, line, column, message);
    return false;
  }

  /** The period a session of the file is at one institution: updated to the session's values, or planned. */
  private touchPeriod(institutionId: string, sessionId: string): TPlannedPeriod {
    const s = this.sessions.get(sessionId)!;
    const key = `${institutionId}|${s.code}`;
    const period = this.periodsByKey.get(key);
    if (!period) {
      const planned: TPlannedPeriod = { ref: { pending: () => "" }, institutionId, code: s.code, name: s.title, startsOn: s.startsOn, endsOn: s.endsOn, create: true };
      let created = "";
      planned.ref = { pending: () => created };
      this.writes.push(async () => {
        created = (await createPeriod({ institutionId, code: s.code, name: s.title, startsOn: s.startsOn, endsOn: s.endsOn }, { tx: this.tx })).id;
      });
      this.periodsByKey.set(key, planned);
      return planned;
    }
    if (!period.create && "id" in period.ref) {
      const id = period.ref.id;
      this.coveredPeriods.add(id);
      if (!this.periodUpdates.has(id) && (period.name !== s.title || period.startsOn !== s.startsOn || period.endsOn !== s.endsOn)) {
        this.periodUpdates.add(id);
        this.writes.push(() => updatePeriod({ periodId: id, changes: { name: s.title, startsOn: s.startsOn, endsOn: s.endsOn } }, { tx: this.tx }));
      }
    }
    return period;
  }

  private planCourses(): void {
    for (const { line, cells } of this.rows("courses")) {
      this.tick();
      const c = parseCourse(cells);
      if (c.status === "tobedeleted") continue;
      // A course is not stored (the Hub derives it from its classes): only its references are checked.
      if (!this.org(c.orgSourcedId)) this.fail("courses", line, "orgSourcedId", `organização ${c.orgSourcedId} não encontrada nesta rede nem em orgs.csv`);
      if (c.schoolYearSourcedId && !this.sessions.has(c.schoolYearSourcedId) && !this.hubPeriods.has(c.schoolYearSourcedId)) {
        this.fail("courses", line, "schoolYearSourcedId", `ano letivo ${c.schoolYearSourcedId} não encontrado em academicSessions.csv nem no Hub`);
      }
      this.courses.add(c.sourcedId);
    }
  }

  private async planClasses(): Promise<void> {
    const hubClasses = new Map(
      (await this.tx.class.findMany({ where: { institutionId: { in: [...this.inSubtree] } }, select: { id: true, institutionId: true, periodId: true, name: true, grade: true, shift: true } })).map((c) => [c.id, c]),
    );
    this.hubClasses = hubClasses;
    const byPeriodName = new Map([...hubClasses.values()].map((c) => [`${c.periodId}|${fold(c.name)}`, c.id]));
    const subjects = await this.tx.subject.findMany({ where: { institutionId: { in: [...this.inSubtree] } }, select: { id: true, institutionId: true, name: true, code: true } });
    for (const s of subjects) {
      this.subjectsByKey.set(`${s.institutionId}|name|${fold(s.name)}`, { id: s.id });
      this.subjectsByKey.set(`${s.institutionId}|id|${s.id}`, { id: s.id });
      if (s.code) this.subjectsByKey.set(`${s.institutionId}|code|${fold(s.code)}`, { id: s.id });
    }
    for (const { line, cells } of this.rows("classes")) {
      this.tick();
      const c = parseClass(cells);
      const existingId = hubClasses.has(c.sourcedId) ? c.sourcedId : this.lookup("class", c.sourcedId);
      const existing = existingId ? hubClasses.get(existingId) : undefined;
      if (c.status === "tobedeleted") {
        if (existing) this.classDeletes.add(existing.id);
        continue;
      }
      let ok = true;
      const school = this.org(c.schoolSourcedId);
      if (!school) ok = this.bad("classes", line, "schoolSourcedId", `escola ${c.schoolSourcedId} não encontrada nesta rede nem em orgs.csv`);
      if (!c.title) ok = this.bad("classes", line, "title", "informe o nome da turma");
      else if (c.title.length > 100) ok = this.bad("classes", line, "title", "nome longo demais (máximo 100 caracteres)");
      if (c.shift && !(SHIFTS as readonly string[]).includes(c.shift)) ok = this.bad("classes", line, "metadata.hub.turno", "use manha, tarde, noite ou integral");
      if (this.tables.courses && !this.courses.has(c.courseSourcedId)) ok = this.bad("classes", line, "courseSourcedId", `curso ${c.courseSourcedId} não está em courses.csv`);
      const term = c.termSourcedIds[0];
      let period: TPlannedPeriod | undefined;
      if (!term) ok = this.bad("classes", line, "termSourcedIds", "informe o ano letivo da turma");
      else if (school) {
        if (this.sessions.has(term)) {
          const s = this.sessions.get(term)!;
          if (s.hubPeriodId && this.hubPeriods.get(s.hubPeriodId)!.institutionId !== school) {
            ok = this.bad("classes", line, "termSourcedIds", `o período ${term} é de outra instituição; cada escola tem os seus períodos no Hub`);
          } else period = this.touchPeriod(school, term);
        } else {
          const hub = this.hubPeriods.get(term);
          if (hub && hub.institutionId === school) period = this.periodsByKey.get(`${school}|${hub.code}`);
          else ok = this.bad("classes", line, "termSourcedIds", `ano letivo ${term} não encontrado em academicSessions.csv nem nesta escola`);
        }
      }
      if (!ok || !school || !period) continue;
      if (existing && existing.institutionId !== school) {
        this.fail("classes", line, "schoolSourcedId", "a turma já existe em outra escola; o Hub não muda uma turma de escola");
        continue;
      }
      const grade = c.grades[0] ?? null;
      const shift = (c.shift as (typeof SHIFTS)[number] | null) ?? null;
      let ref: TRef;
      const periodExisting = "id" in period.ref ? period.ref.id : null;
      const adopted = !existing && periodExisting ? byPeriodName.get(`${periodExisting}|${fold(c.title)}`) : undefined;
      const target = existing ?? (adopted ? hubClasses.get(adopted) : undefined);
      if (target) {
        if (periodExisting !== target.periodId) {
          this.fail("classes", line, "termSourcedIds", "a turma já existe em outro ano letivo; o Hub não muda o ano letivo de uma turma (crie outra turma)");
          continue;
        }
        ref = { id: target.id };
        this.coveredClasses.add(target.id);
        if (target.name !== c.title || (target.grade ?? null) !== grade || (target.shift ?? null) !== shift) {
          this.writes.push(() => updateClass({ classId: target.id, changes: { name: c.title, grade, shift } }, { tx: this.tx }));
        }
      } else {
        let created = "";
        ref = { pending: () => created };
        const p = period;
        this.writes.push(async () => {
          created = (await createClass({ periodId: idOf(p.ref), name: c.title, grade, shift }, { tx: this.tx })).id;
        });
      }
      if (!existing || existing.id !== c.sourcedId) this.remember("class", c.sourcedId, ref);
      const classSubjects: TRef[] = [];
      const subjectRefs = new Map<string, TRef>();
      c.subjects.forEach((name, i) => {
        const code = c.subjectCodes[i] || null;
        const subject = this.subject(school, name, code);
        classSubjects.push(subject);
        subjectRefs.set(fold(name), subject);
        if (code) subjectRefs.set(fold(code), subject);
      });
      this.classes.set(c.sourcedId, { ref, institutionId: school, subjects: classSubjects, subjectRefs });
    }
  }
  private hubClasses = new Map<string, { id: string; institutionId: string; periodId: string; name: string }>();
  private readonly classDeletes = new Set<string>();
  private readonly coveredClasses = new Set<string>();

  /** A subject at a school by name: the existing one, or one created (once) by the write step. */
  private subject(institutionId: string, name: string, code: string | null): TRef {
    const key = `${institutionId}|name|${fold(name)}`;
    let ref = this.subjectsByKey.get(key);
    if (!ref) {
      let created = "";
      ref = { pending: () => created };
      this.writes.push(async () => {
        created = (await createSubject({ institutionId, name, code }, { tx: this.tx })).id;
      });
      this.subjectsByKey.set(key, ref);
      if (code) this.subjectsByKey.set(`${institutionId}|code|${fold(code)}`, ref);
    }
    return ref;
  }

  private parsedUsers: { line: number; user: ReturnType<typeof parseUser> }[] | undefined;

  /** users.csv's rows as users, parsed once for planUsers and planAgents. */
  private userRows() {
    return (this.parsedUsers ??= this.rows("users").map(({ line, cells }) => ({ line, user: parseUser(cells) })));
  }

  private async planUsers(): Promise<void> {
    const profiles = await this.tx.profile.findMany({
      where: { institutionId: { in: [...this.inSubtree] } },
      select: { id: true, personId: true, institutionId: true, role: true, person: { select: { id: true, name: true, email: true, cpf: true, phone: true, birthDate: true } } },
    });
    this.hubProfiles = new Map(profiles.map((p) => [p.id, p]));
    for (const p of profiles) {
      const list = this.profilesOfPerson.get(p.personId) ?? [];
      list.push(p);
      this.profilesOfPerson.set(p.personId, list);
      this.people.set(p.personId, p.person);
    }
    const rows = this.userRows();
    // People the file names by e-mail or CPF, wherever they are in the Hub.
    const emails = [...new Set(rows.flatMap((r) => (r.user.email ? [r.user.email.toLowerCase()] : [])))];
    const cpfs = [...new Set(rows.flatMap((r) => (r.user.userIds ?? []).filter((i) => i.type.toUpperCase() === "CPF").map((i) => i.identifier.replace(/[.\-\s]/g, ""))))];
    const known = emails.length + cpfs.length === 0 ? [] : await this.tx.person.findMany({
      where: { OR: [{ email: { in: emails } }, { cpf: { in: cpfs } }] },
      select: { id: true, name: true, email: true, cpf: true, phone: true, birthDate: true },
    });
    const byEmail = new Map(known.flatMap((p) => (p.email ? [[p.email, p] as const] : [])));
    const byCpf = new Map(known.flatMap((p) => (p.cpf ? [[p.cpf, p] as const] : [])));
    for (const p of known) if (!this.people.has(p.id)) this.people.set(p.id, p);
    const claimed = new Map<string, number>();

    for (const { line, user } of rows) {
      this.tick();
      const own = this.hubProfiles.get(user.sourcedId);
      const mappedPerson = this.lookup("user", user.sourcedId);
      const enabled = fold(user.enabledUser);
      if (enabled !== "" && enabled !== "true" && enabled !== "false") {
        this.fail("users", line, "enabledUser", `"${user.enabledUser}" não é aceito: use true, ou false para um usuário que sai do Hub (o Hub não tem contas desativadas)`);
        continue;
      }
      // The Hub has no disabled accounts: enabledUser false removes the user, as tobedeleted does.
      if (user.status === "tobedeleted" || enabled === "false") {
        this.removedUsers.add(user.sourcedId);
        const personId = own?.personId ?? mappedPerson;
        for (const p of own ? [own] : (personId ? this.profilesOfPerson.get(personId) ?? [] : [])) if (p.role !== "gestor" || own) this.profileDeletes.add(p.id);
        continue;
      }
      let ok = true;
      const name = joinName(user.givenName, user.familyName);
      if (name.length < 2) ok = this.bad("users", line, "givenName", "informe o nome (givenName e familyName)");
      else if (name.length > 200) ok = this.bad("users", line, "familyName", "nome longo demais");
      let email: string | null = null;
      if (user.email) {
        const parsed = z.email().max(254).safeParse(user.email.toLowerCase());
        if (parsed.success) email = parsed.data;
        else ok = this.bad("users", line, "email", "e-mail inválido");
      }
      let cpf: string | null = null;
      if (user.userIds === null) ok = this.bad("users", line, "userIds", "use itens {tipo:identificador} separados por vírgula, como {CPF:52998224725}");
      else {
        const given = user.userIds.find((i) => i.type.toUpperCase() === "CPF");
        if (given) {
          const parsed = ZCpf.safeParse(given.identifier);
          if (parsed.success) cpf = parsed.data;
          else ok = this.bad("users", line, "userIds", "CPF inválido");
        }
      }
      let phone: string | null = null;
      if (user.phone) {
        const parsed = ZPhone.safeParse(user.phone);
        if (parsed.success) phone = parsed.data;
        else ok = this.bad("users", line, "phone", "telefone inválido (use DDD e número)");
      }
      for (const [key, label, column] of [[email && `e:${email}`, "E-mail", "email"], [cpf && `c:${cpf}`, "CPF", "userIds"]] as const) {
        if (!key) continue;
        const first = claimed.get(key);
        if (first !== undefined) ok = this.bad("users", line, column, `${label} repetido no arquivo (também na linha ${first})`);
        else claimed.set(key, line);
      }
      if (!ok) continue;

      // Who this row is: the profile it names, its mapped person, or the person with its e-mail or CPF.
      const candidates = new Set<string>();
      const firstChoice = own?.personId ?? (mappedPerson && this.people.has(mappedPerson) ? mappedPerson : undefined);
      const emailOwner = email ? byEmail.get(email)?.id : undefined;
      const cpfOwner = cpf ? byCpf.get(cpf)?.id : undefined;
      if (firstChoice) candidates.add(firstChoice);
      if (emailOwner) candidates.add(emailOwner);
      if (cpfOwner) candidates.add(cpfOwner);
      if (candidates.size > 1) {
        const column = firstChoice && emailOwner && emailOwner !== firstChoice ? "email" : "userIds";
        this.fail("users", line, column, `${column === "email" ? "o e-mail" : "o CPF"} já é de outra pessoa do Hub; o Hub nunca tem duas pessoas com o mesmo e-mail ou CPF`);
        continue;
      }
      const personId = [...candidates][0];
      let personRef: TRef;
      const profiles = new Map<string, TRef>();
      if (personId) {
        personRef = { id: personId };
        for (const p of this.profilesOfPerson.get(personId) ?? []) profiles.set(`${p.role}|${p.institutionId}`, { id: p.id });
        // A person with no profile in this subtree is another network's: the file links them, it does not edit them.
        const editable = (this.profilesOfPerson.get(personId) ?? []).length > 0;
        const person = this.people.get(personId)!;
        if (editable) {
          const changes: { name?: string; email?: string; cpf?: string; phone?: string } = {};
          if (name !== person.name.trim().split(/\s+/).join(" ")) changes.name = name;
          if (email && email !== person.email) changes.email = email;
          if (cpf && cpf !== person.cpf) changes.cpf = cpf;
          if (phone && phone !== person.phone) changes.phone = phone;
          if (Object.keys(changes).length > 0) this.writes.push(() => updatePerson({ personId, changes }, { tx: this.tx }));
        }
        this.users.set(user.sourcedId, { file: "users", line, personRef, profiles, ownProfileId: own?.id ?? null, mapped: !own, editable });
      } else {
        let created = "";
        personRef = { pending: () => created };
        this.writes.push(async () => {
          created = (await createPerson({ name, email, cpf, phone }, { tx: this.tx })).id;
        });
        this.users.set(user.sourcedId, { file: "users", line, personRef, profiles, ownProfileId: null, mapped: true, editable: true });
      }
      if (own) this.coveredProfiles.add(own.id);
      else this.remember("user", user.sourcedId, personRef);
    }

    // roles.csv: each role at an org is a profile of the person there.
    const withRole = new Set<string>();
    for (const { line, cells } of this.rows("roles")) {
      this.tick();
      const r = parseRole(cells);
      if (this.removedUsers.has(r.userSourcedId)) continue;
      const user = this.userOf(r.userSourcedId);
      if (!user) {
        if (!this.errorsFor("users", r.userSourcedId)) this.fail("roles", line, "userSourcedId", `usuário ${r.userSourcedId} não está em users.csv nem nesta rede`);
        continue;
      }
      withRole.add(r.userSourcedId);
      if (r.status === "tobedeleted") continue;
      const role = HUB_ROLE[r.role];
      const org = this.org(r.orgSourcedId);
      if (!role) {
        this.fail("roles", line, "role", `o papel "${r.role}" não existe no Hub; use student, teacher, guardian, siteAdministrator ou districtAdministrator`);
        continue;
      }
      if (!org) {
        this.fail("roles", line, "orgSourcedId", `organização ${r.orgSourcedId} não encontrada nesta rede nem em orgs.csv`);
        continue;
      }
      this.ensureProfile(user, role, org);
    }
    for (const [sid, user] of this.users) {
      if (user.ownProfileId || withRole.has(sid)) continue;
      this.fail("users", user.line, "sourcedId", `o usuário ${sid} não tem papel em roles.csv: informe ao menos um (role e orgSourcedId)`);
    }
  }
  private hubProfiles = new Map<string, { id: string; personId: string; institutionId: string; role: Role }>();
  private readonly profilesOfPerson = new Map<string, { id: string; personId: string; institutionId: string; role: Role }[]>();
  private readonly people = new Map<string, { id: string; name: string; email: string | null; cpf: string | null; phone: string | null; birthDate: Date | null }>();
  private readonly profileDeletes = new Set<string>();
  private readonly coveredProfiles = new Set<string>();
  /** Users rows that remove their user (tobedeleted, or enabledUser false): the other files' rows naming them are skipped. */
  private readonly removedUsers = new Set<string>();

  private readonly lineOf = new Map<TCsvFile, Map<string, number>>();

  /** Whether the row of `file` with this sourcedId was refused (its dependants then say nothing more). */
  private errorsFor(file: TCsvFile, sourcedId: string): boolean {
    let lines = this.lineOf.get(file);
    if (!lines) this.lineOf.set(file, (lines = new Map(this.rows(file).map((r) => [r.cells.sourcedId ?? "", r.line]))));
    const line = lines.get(sourcedId);
    return line !== undefined && this.errors.has(`${file}:${line}`);
  }

  /** A user the file or the subtree names: the file's row, a Hub profile, or a mapped person. */
  private userOf(sourcedId: string): TPlannedUser | undefined {
    const planned = this.users.get(sourcedId);
    if (planned) return planned;
    const own = this.hubProfiles.get(sourcedId);
    const personId = own?.personId ?? this.lookup("user", sourcedId);
    if (!personId || !this.profilesOfPerson.has(personId)) return undefined;
    const profiles = new Map<string, TRef>((this.profilesOfPerson.get(personId) ?? []).map((p) => [`${p.role}|${p.institutionId}`, { id: p.id }]));
    const user: TPlannedUser = { file: "users", line: 0, personRef: { id: personId }, profiles, ownProfileId: own?.id ?? null, mapped: false, editable: true };
    this.users.set(sourcedId, user);
    return user;
  }

  private ensureProfile(user: TPlannedUser, role: Role, institutionId: string): TRef {
    const key = `${role}|${institutionId}`;
    let ref = user.profiles.get(key);
    if (ref) {
      if ("id" in ref) this.coveredProfiles.add(ref.id);
      return ref;
    }
    let created = "";
    ref = { pending: () => created };
    user.profiles.set(key, ref);
    this.writes.push(async () => {
      created = (await createProfile({ personId: idOf(user.personRef), institutionId, role }, { tx: this.tx })).id;
    });
    return ref;
  }

  private async planDemographics(): Promise<void> {
    for (const { line, cells } of this.rows("demographics")) {
      this.tick();
      const d = parseDemographics(cells);
      if (d.status === "tobedeleted" || !d.birthDate || this.removedUsers.has(d.sourcedId)) continue;
      const user = this.userOf(d.sourcedId);
      if (!user) {
        this.fail("demographics", line, "sourcedId", `usuário ${d.sourcedId} não está em users.csv nem nesta rede`);
        continue;
      }
      if (!DAY.test(d.birthDate) || Number.isNaN(Date.parse(d.birthDate))) {
        this.fail("demographics", line, "birthDate", "data inválida (use AAAA-MM-DD)");
        continue;
      }
      const personRef = user.personRef;
      if ("id" in personRef) {
        if (!user.editable) continue;
        if (day(this.people.get(personRef.id)?.birthDate ?? null) === d.birthDate) continue;
        if (this.birthDates.has(personRef.id)) continue;
        this.birthDates.add(personRef.id);
      }
      const birthDate = d.birthDate;
      this.writes.push(() => updatePerson({ personId: idOf(personRef), changes: { birthDate } }, { tx: this.tx }));
    }
  }
  private readonly birthDates = new Set<string>();

  private async planEnrollments(): Promise<void> {
    const classIds = [...this.inSubtree].length ? { in: [...this.hubClasses.keys()] } : undefined;
    const students = await this.tx.classStudent.findMany({ where: { classId: classIds }, select: { id: true, classId: true, studentId: true } });
    const teachings = await this.tx.subjectTeacher.findMany({ where: { classId: classIds }, select: { id: true, classId: true, subjectId: true, teacherId: true } });
    const studentByKey = new Map(students.map((s) => [`${s.classId}|${s.studentId}`, s.id]));
    const teachingByKey = new Map(teachings.map((t) => [`${t.classId}|${t.subjectId}|${t.teacherId}`, t.id]));
    const subjectsOfClass = new Map<string, Set<string>>();
    for (const t of teachings) subjectsOfClass.set(t.classId, new Set([...(subjectsOfClass.get(t.classId) ?? []), t.subjectId]));
    this.hubEnrollments = [...students.map((s) => ({ id: s.id, classId: s.classId, kind: "student" as const })), ...teachings.map((t) => ({ id: t.id, classId: t.classId, kind: "teacher" as const }))];
    const seen = new Map<string, number>();

    for (const { line, cells } of this.rows("enrollments")) {
      this.tick();
      const e = parseEnrollment(cells);
      if (this.removedUsers.has(e.userSourcedId)) continue;
      const cls = this.classOf(e.classSourcedId);
      const user = this.userOf(e.userSourcedId);
      let ok = true;
      // A class or user whose own row failed is reported there, once, not again on each of its enrollments.
      if (!cls) ok = this.errorsFor("classes", e.classSourcedId) ? false : this.bad("enrollments", line, "classSourcedId", `turma ${e.classSourcedId} não está em classes.csv nem nesta rede`);
      if (!user) ok = this.errorsFor("users", e.userSourcedId) ? false : this.bad("enrollments", line, "userSourcedId", `usuário ${e.userSourcedId} não está em users.csv nem nesta rede`);
      if (e.role !== "student" && e.role !== "teacher") {
        this.fail("enrollments", line, "role", `o Hub só matricula alunos (student) e atribui professores (teacher) a turmas; "${e.role}" não é aceito`);
        continue;
      }
      if (!ok || !cls || !user) continue;
      const role: Role = e.role === "student" ? "aluno" : "professor";
      const profile = user.profiles.get(`${role}|${cls.institutionId}`);
      if (!profile) {
        this.fail("enrollments", line, "userSourcedId", `${e.userSourcedId} não tem papel ${e.role} na escola da turma; acrescente a linha em roles.csv`);
        continue;
      }
      let subject: TRef | undefined;
      if (e.role === "teacher") {
        const named = e.subject ? (cls.subjectRefs.get(fold(e.subject)) ?? this.subjectsByKey.get(`${cls.institutionId}|name|${fold(e.subject)}`) ?? this.subjectsByKey.get(`${cls.institutionId}|code|${fold(e.subject)}`) ?? this.subjectsByKey.get(`${cls.institutionId}|id|${e.subject}`)) : undefined;
        if (e.subject && !named) {
          this.fail("enrollments", line, "metadata.hub.disciplina", `disciplina "${e.subject}" não existe na escola da turma nem na coluna subjects da turma em classes.csv`);
          continue;
        }
        const options = cls.subjects.length > 0 ? cls.subjects : "id" in cls.ref ? [...(subjectsOfClass.get(cls.ref.id) ?? [])].map((id) => ({ id })) : [];
        subject = named ?? (options.length === 1 ? options[0] : undefined);
        if (!subject) {
          this.fail("enrollments", line, "metadata.hub.disciplina", `a turma tem ${options.length === 0 ? "nenhuma disciplina" : `${options.length} disciplinas`}: informe a disciplina do professor na coluna metadata.hub.disciplina (nome ou código), ou liste uma só disciplina na coluna subjects da turma em classes.csv`);
          continue;
        }
      }
      const key = ["id" in cls.ref ? cls.ref.id : `new:${e.classSourcedId}`, subject ? ("id" in subject ? subject.id : `new:${e.subject}`) : "", "id" in profile ? profile.id : `new:${e.userSourcedId}`].join("|");
      const first = seen.get(key);
      if (first !== undefined) {
        this.fail("enrollments", line, null, `matrícula repetida no arquivo (também na linha ${first})`);
        continue;
      }
      seen.set(key, line);
      const existing = "id" in cls.ref && "id" in profile && (!subject || "id" in subject)
        ? subject ? teachingByKey.get(`${cls.ref.id}|${(subject as { id: string }).id}|${profile.id}`) : studentByKey.get(`${cls.ref.id}|${profile.id}`)
        : undefined;
      if (e.status === "tobedeleted") {
        if (existing) this.enrollmentDeletes.set(existing, e.role);
        continue;
      }
      if (existing) {
        this.coveredEnrollments.add(existing);
        continue;
      }
      const clsRef = cls.ref;
      const subjectRef = subject;
      this.enrollmentWrites.push(() =>
        subjectRef
          ? assignTeacher({ classId: idOf(clsRef), subjectId: idOf(subjectRef), teacherId: idOf(profile) }, { tx: this.tx })
          : enrollStudent({ classId: idOf(clsRef), studentId: idOf(profile) }, { tx: this.tx }),
      );
    }
  }
  private hubEnrollments: { id: string; classId: string; kind: "student" | "teacher" }[] = [];
  private readonly enrollmentDeletes = new Map<string, "student" | "teacher">();
  private readonly coveredEnrollments = new Set<string>();
  private readonly enrollmentWrites: (() => Promise<unknown>)[] = [];

  private classOf(sourcedId: string) {
    const planned = this.classes.get(sourcedId);
    if (planned) return planned;
    const id = this.hubClasses.has(sourcedId) ? sourcedId : this.lookup("class", sourcedId);
    const hub = id ? this.hubClasses.get(id) : undefined;
    return hub ? { ref: { id: hub.id } as TRef, institutionId: hub.institutionId, subjects: [] as TRef[], subjectRefs: new Map<string, TRef>() } : undefined;
  }

  /** Bulk files list everything: what the subtree has and the file does not is deleted. */
  private planBulkDeletes(): void {
    if (this.modes.classes === "bulk") for (const id of this.hubClasses.keys()) if (!this.coveredClasses.has(id)) this.classDeletes.add(id);
    if (this.modes.users === "bulk") {
      // A manager is never removed by a file that leaves them out: that would lock the school out of /gestao.
      for (const p of this.hubProfiles.values()) if (!this.coveredProfiles.has(p.id) && p.role !== "gestor") this.profileDeletes.add(p.id);
    }
    if (this.modes.enrollments === "bulk") {
      for (const e of this.hubEnrollments) if (!this.coveredEnrollments.has(e.id) && !this.classDeletes.has(e.classId)) this.enrollmentDeletes.set(e.id, e.kind);
    }
    if (this.modes.academicSessions === "bulk") {
      for (const p of this.hubPeriods.values()) if (!this.coveredPeriods.has(p.id)) this.periodDeletes.add(p.id);
    }
    for (const periodId of this.periodDeletes) {
      const staying = [...this.hubClasses.values()].filter((c) => c.periodId === periodId && !this.classDeletes.has(c.id));
      if (staying.length > 0) {
        const period = this.hubPeriods.get(periodId)!;
        this.fileErrors.push(`O período ${period.name} (${period.code}) sai pelo academicSessions.csv, mas as turmas ${staying.map((c) => c.name).join(", ")} continuam nele: exclua-as no classes.csv também.`);
      }
    }
  }

  /**
   * users.csv `agentSourcedIds`: a guardian link between the row's user and each agent, at every
   * school where one of them is responsável and the other aluno (profiles that stay or are
   * planned). The Hub's export lists each link on both users: it is one link, written only when
   * missing. A bulk users.csv with the column also lists every link: the others are removed.
   */
  private async planAgents(): Promise<void> {
    const table = this.tables.users;
    if (!table) return;
    const existing = await this.tx.guardianStudent.findMany({ where: { student: { institutionId: { in: [...this.inSubtree] } } }, select: { id: true, guardianId: true, studentId: true } });
    const existingKeys = new Set(existing.map((g) => `${g.guardianId}|${g.studentId}`));
    const stays = (ref: TRef) => !("id" in ref) || !this.profileDeletes.has(ref.id);
    const pendingKeys = new Map<TRef, string>();
    const keyOf = (ref: TRef) => {
      if ("id" in ref) return ref.id;
      if (!pendingKeys.has(ref)) pendingKeys.set(ref, `new:${pendingKeys.size}`);
      return pendingKeys.get(ref)!;
    };
    const listed = new Set<string>();
    for (const { line, user: u } of this.userRows()) {
      const user = this.users.get(u.sourcedId);
      if (!user || this.removedUsers.has(u.sourcedId) || this.errorsFor("users", u.sourcedId)) continue;
      for (const agentId of u.agentSourcedIds) {
        if (this.removedUsers.has(agentId)) continue;
        const agent = this.userOf(agentId);
        if (!agent) {
          if (!this.errorsFor("users", agentId)) this.fail("users", line, "agentSourcedIds", `usuário ${agentId} não está em users.csv nem nesta rede`);
          continue;
        }
        const pairs: { guardian: TRef; student: TRef }[] = [];
        for (const [key, ref] of user.profiles) {
          const [role, institutionId] = key.split("|");
          if (role !== "responsavel" && role !== "aluno") continue;
          const other = agent.profiles.get(`${role === "responsavel" ? "aluno" : "responsavel"}|${institutionId}`);
          if (!other || !stays(ref) || !stays(other)) continue;
          pairs.push(role === "responsavel" ? { guardian: ref, student: other } : { guardian: other, student: ref });
        }
        if (pairs.length === 0) {
          this.fail("users", line, "agentSourcedIds", `${agentId} e este usuário não são responsável e aluno na mesma escola: em roles.csv, dê a um deles o papel guardian (ou parent, relative) e ao outro o papel student, na mesma escola`);
          continue;
        }
        for (const { guardian, student } of pairs) {
          const key = `${keyOf(guardian)}|${keyOf(student)}`;
          if (listed.has(key)) continue;
          listed.add(key);
          if (!existingKeys.has(key)) this.enrollmentWrites.push(() => linkGuardian({ guardianId: idOf(guardian), studentId: idOf(student) }, { tx: this.tx }));
        }
      }
    }
    // Without the column the file says nothing about links. A link of a profile that goes is removed with it (deleteProfile).
    if (this.modes.users === "bulk" && table.header.includes("agentSourcedIds")) {
      for (const g of existing) {
        if (!listed.has(`${g.guardianId}|${g.studentId}`) && !this.profileDeletes.has(g.guardianId) && !this.profileDeletes.has(g.studentId)) this.guardianDeletes.add(g.id);
      }
    }
  }
  private readonly guardianDeletes = new Set<string>();

  private queueDeletes(): void {
    // Deletes run first (a class removed frees its name for one created), enrollments before their classes.
    for (const [id, kind] of this.enrollmentDeletes) {
      this.deletes.push(() => (kind === "student" ? unenrollStudent({ enrollmentId: id }, { tx: this.tx }) : unassignTeacher({ assignmentId: id }, { tx: this.tx })));
    }
    for (const id of this.classDeletes) this.deletes.push(() => deleteClass({ classId: id }, { tx: this.tx }));
    for (const id of this.guardianDeletes) this.deletes.push(() => unlinkGuardian({ guardianshipId: id }, { tx: this.tx }));
    for (const id of this.profileDeletes) this.deletes.push(() => deleteProfile({ profileId: id }, { tx: this.tx }));
    for (const id of this.periodDeletes) this.deletes.push(() => deletePeriod({ periodId: id }, { tx: this.tx }));
  }

  // ------------------------------------------------------------ writing

  async write(): Promise<void> {
    const steps = [...this.deletes, ...this.writes, ...this.enrollmentWrites];
    const total = steps.length + this.mappings.length;
    const report = (done: number) => this.onProgress?.({ phase: "importando", done, total });
    report(0);
    let done = 0;
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        // A service refused what the checks let through (a race with another manager's edit): nothing is kept.
        throw error instanceof AppError ? new AppError(error.code, `${error.message} (importação OneRoster)`) : error;
      }
      if (++done % 100 === 0) report(done);
    }
    for (const m of this.mappings) {
      await this.tx.oneRosterSourcedId.create({ data: { institutionId: this.rootId, type: m.type, sourcedId: m.sourcedId, hubId: idOf(m.ref) } });
      if (++done % 100 === 0) report(done);
    }
    report(total);
  }
}
