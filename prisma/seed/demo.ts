// The embedded demo: a network with two schools, their school data (through the school-data
// services, so every row has its real Data API event), two edtechs with tools, the demo OAuth
// application and the fixed identities listed in the README.
import { db } from "@/lib/server/db/database";
import type { Tx } from "@/lib/server/school-data/record-change";
import type { Profile, Role } from "@/lib/generated/prisma/client";
import { hashSecret } from "@/lib/oauth/secret";
import { encryptSecret } from "@/lib/server/crypto/secret-box";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import { LTI_SECRET_PURPOSE } from "@/lib/server/tools/lti-secret-purpose";
import { birthDate, personName, syntheticCpf, slugEmail } from "./names";

export const DEMO_PASSWORD = "hub-demo";
export const DEMO = {
  teacherGuardian: "ana.souza@demo.hub.br",
  student: "aluno@demo.hub.br",
  manager: "gestor@demo.hub.br",
  developer: "dev@edtech.demo",
  clientId: "demo-app",
  clientSecret: "demo-secret",
  apiKey: "demo-api-key",
  toolConsumerKey: "demo-tool",
  toolSecret: "demo-tool-secret",
} as const;

// Re-exported for scripts that imported it from here before it moved next to its readers.
export { LTI_SECRET_PURPOSE };

const SUBJECTS = ["Matemática", "Língua Portuguesa", "Ciências", "História", "Geografia", "Arte", "Educação Física", "Língua Inglesa"];

function logoSvg(letter: string, color: string): string {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="20" fill="${color}"/>` +
      `<text x="48" y="62" font-family="sans-serif" font-size="44" font-weight="700" text-anchor="middle" fill="#fff">${letter}</text></svg>`,
  ).toString("base64");
}

async function person(tx: Tx, name: string, i: number, extra: { email?: string; password?: string; age: number }) {
  return createPerson({
    name,
    email: extra.email ?? slugEmail(name, i, "alunos.demo.hub.br"),
    cpf: syntheticCpf(i),
    phone: `1199${String(1_000_000 + i).slice(-7)}`,
    birthDate: birthDate(i, extra.age),
    password: extra.password,
  }, { tx });
}

async function profile(tx: Tx, personId: string, institutionId: string, role: Role): Promise<Profile> {
  return createProfile({ personId, institutionId, role }, { tx });
}

async function seedSchool(tx: Tx, schoolId: string, index: number, counter: { n: number }) {
  const p2025 = await createPeriod({ institutionId: schoolId, code: "2025", name: "Ano letivo 2025", startsOn: "2025-02-03", endsOn: "2025-12-12" }, { tx });
  const p2026 = await createPeriod({ institutionId: schoolId, code: "2026", name: "Ano letivo 2026", startsOn: "2026-02-02", endsOn: "2026-12-11" }, { tx });
  const subjects = [];
  for (const name of SUBJECTS) subjects.push(await createSubject({ institutionId: schoolId, name }, { tx }));
  const classes = [];
  for (const [period, names] of [[p2025, ["6º ano A"]], [p2026, ["7º ano A", "7º ano B", "8º ano A"]]] as const) {
    for (const name of names) classes.push(await createClass({ periodId: period.id, name, grade: name.slice(0, 6), shift: index % 2 ? "tarde" : "manha" }, { tx }));
  }
  const teachers = [];
  for (let t = 0; t < 3; t++) {
    const i = counter.n++;
    const p = await person(tx, personName(i + 500), i, { email: slugEmail(personName(i + 500), i, "professores.demo.hub.br"), age: 35 + t });
    teachers.push(await profile(tx, p.id, schoolId, "professor"));
  }
  const students: Profile[] = [];
  for (const [c, cls] of classes.entries()) {
    for (let s = 0; s < 8; s++) {
      const i = counter.n++;
      const p = await person(tx, personName(i), i, { age: 11 + c });
      const student = await profile(tx, p.id, schoolId, "aluno");
      students.push(student);
      await enrollStudent({ classId: cls.id, studentId: student.id }, { tx });
      if (s < 2) {
        const g = counter.n++;
        const gp = await person(tx, personName(g + 900), g, { email: slugEmail(personName(g + 900), g, "familias.demo.hub.br"), age: 40 });
        await linkGuardian({ guardianId: (await profile(tx, gp.id, schoolId, "responsavel")).id, studentId: student.id, kinship: s ? "pai" : "mãe" }, { tx });
      }
    }
    for (const [k, subject] of subjects.slice(0, 4).entries()) {
      await assignTeacher({ classId: cls.id, subjectId: subject.id, teacherId: teachers[k % teachers.length]!.id }, { tx });
    }
  }
  return { classes, subjects, students, p2026 };
}

export async function isDemoSeeded(): Promise<boolean> {
  return (await db().person.count({ where: { email: DEMO.manager } })) > 0;
}

/** Idempotent: does nothing when the demo identities already exist. */
export async function seedDemo({ baseUrl }: { baseUrl: string }): Promise<{ created: boolean }> {
  if (await isDemoSeeded()) return { created: false };
  // One transaction: a seed that fails half-way leaves nothing behind, and the next start retries.
  await db().$transaction((tx) => seedInTransaction(tx, baseUrl), { timeout: 10 * 60_000, maxWait: 60_000 });
  return { created: true };
}

async function seedInTransaction(tx: Tx, baseUrl: string): Promise<void> {
  const network = await createInstitution({ name: "Rede Municipal de Vila Esperança", kind: "network" }, { tx });
  const school1 = await createInstitution({ name: "EMEF Monteiro Lobato", kind: "school", parentId: network.id }, { tx });
  const school2 = await createInstitution({ name: "EMEF Cecília Meireles", kind: "school", parentId: network.id }, { tx });
  const counter = { n: 1 };
  const s1 = await seedSchool(tx, school1.id, 0, counter);
  const s2 = await seedSchool(tx, school2.id, 1, counter);

  // Fixed identities.
  const ana = await person(tx, "Ana Souza", counter.n++, { email: DEMO.teacherGuardian, password: DEMO_PASSWORD, age: 38 });
  const anaTeacher = await profile(tx, ana.id, school1.id, "professor");
  const anaGuardian = await profile(tx, ana.id, school2.id, "responsavel");
  await assignTeacher({ classId: s1.classes[1]!.id, subjectId: s1.subjects[0]!.id, teacherId: anaTeacher.id }, { tx });
  const lucas = await person(tx, "Lucas Souza", counter.n++, { age: 12 });
  const lucasStudent = await profile(tx, lucas.id, school2.id, "aluno");
  await enrollStudent({ classId: s2.classes[1]!.id, studentId: lucasStudent.id }, { tx });
  await linkGuardian({ guardianId: anaGuardian.id, studentId: lucasStudent.id, kinship: "mãe" }, { tx });

  const aluno = await person(tx, "Pedro Henrique Lima", counter.n++, { email: DEMO.student, password: DEMO_PASSWORD, age: 12 });
  await enrollStudent({ classId: s1.classes[1]!.id, studentId: (await profile(tx, aluno.id, school1.id, "aluno")).id }, { tx });
  const gestor = await person(tx, "Regina Campos", counter.n++, { email: DEMO.manager, password: DEMO_PASSWORD, age: 50 });
  await profile(tx, gestor.id, network.id, "gestor");
  const dev = await createPerson({ name: "Diego Martins", email: DEMO.developer, password: DEMO_PASSWORD }, { tx });

  // Edtechs, tools and placements.
  const edtech = await tx.edtech.create({ data: { name: "Edtech Demo", slug: "edtech-demo", siteUrl: "https://edtech.demo" } });
  const aprende = await tx.edtech.create({ data: { name: "Aprende Mais", slug: "aprende-mais", siteUrl: "https://aprendemais.example" } });
  await tx.edtechMember.create({ data: { edtechId: edtech.id, personId: dev.id, role: "owner" } });
  const launchUrl = `${baseUrl}/demo-tool/launch`;
  const demoLogo = await tx.asset.create({ data: { contentType: "image/svg+xml", dataBase64: logoSvg("D", "#1d5fd1"), sha256: "demo" } });
  const fracoesLogo = await tx.asset.create({ data: { contentType: "image/svg+xml", dataBase64: logoSvg("F", "#0f766e"), sha256: "fracoes" } });
  const demoTool = await tx.tool.create({
    data: {
      edtechId: edtech.id, title: "Ferramenta de Demonstração", shortDescription: "Veja, passo a passo, o que uma ferramenta recebe ao ser aberta pelo Hub.",
      longDescription: "A ferramenta de referência do Hub. Ao abrir, ela verifica a assinatura OAuth 1.0 do lançamento LTI e mostra quem abriu, com qual papel e em qual contexto. Use-a para conferir a integração da sua escola ou como modelo para a sua ferramenta.",
      siteUrl: "https://edtech.demo", logoId: demoLogo.id, launchUrl, consumerKey: DEMO.toolConsumerKey,
      sharedSecretEnc: encryptSecret(DEMO.toolSecret, LTI_SECRET_PURPOSE),
    },
  });
  const fracoes = await tx.tool.create({
    data: {
      edtechId: aprende.id, title: "Laboratório de Frações", shortDescription: "Planos de aula e atividades interativas sobre frações para o professor.",
      longDescription: "Sequências didáticas prontas, com atividades para projetar em sala e relatórios por turma. Disponível para professores.",
      siteUrl: "https://aprendemais.example", logoId: fracoesLogo.id, launchUrl, consumerKey: "aprende-fracoes",
      sharedSecretEnc: encryptSecret("aprende-fracoes-secret", LTI_SECRET_PURPOSE),
    },
  });
  for (const school of [school1, school2]) {
    await tx.placement.create({ data: { toolId: demoTool.id, institutionId: school.id, roles: [], title: "Ferramenta de Demonstração" } });
  }
  await tx.placement.create({ data: { toolId: fracoes.id, institutionId: school1.id, roles: ["professor"], title: "Laboratório de Frações" } });
  await tx.toolSharing.create({ data: { institutionId: school1.id, toolId: demoTool.id, allowedAttributes: ["nome_usuario", "email_usuario"], anonymizedAttributes: ["email_usuario"] } });

  // The demo OAuth application, its Data API key and the institutions' sharing rules.
  const app = await tx.oAuthApplication.create({
    data: {
      edtechId: edtech.id, name: "Aplicativo de Demonstração", description: "Exemplo vivo de login OAuth 2 com o Hub.",
      homepageUrl: `${baseUrl}/demo-app`, clientId: DEMO.clientId, clientSecretHash: hashSecret(DEMO.clientSecret),
      redirectUris: [`${baseUrl}/demo-app/callback`], defaultResponseType: "code",
    },
  });
  await tx.apiKey.create({ data: { applicationId: app.id, name: "Chave de demonstração", prefix: DEMO.apiKey.slice(0, 8), keyHash: hashSecret(DEMO.apiKey) } });
  await tx.edtechLink.create({ data: { institutionId: network.id, edtechId: edtech.id } });
  await tx.edtechLink.create({ data: { institutionId: school1.id, edtechId: aprende.id } });
  const sharing = [
    { institutionId: network.id, allowed: ["nome_usuario", "idade", "email_usuario"], anonymized: ["email_usuario"] },
    { institutionId: school1.id, allowed: ["nome_usuario", "idade", "email_usuario"], anonymized: ["email_usuario"] },
    { institutionId: school2.id, allowed: ["nome_usuario"], anonymized: [] },
  ];
  // OneRoster 1.2 on at the network and at both schools (each school's own rule would otherwise
  // turn it off there: the nearest rule decides), so `npm start` answers /ims/oneroster with data.
  for (const s of sharing) {
    await tx.applicationAccess.create({
      data: { institutionId: s.institutionId, applicationId: app.id, allowedAttributes: s.allowed, anonymizedAttributes: s.anonymized, oneRoster: true },
    });
  }
}
