// The OneRoster 1.2 CSV import in /gestao, as the network manager of the demo: a zip with one bad
// row imports nothing and names the file, line and column in Portuguese; the fixed zip imports
// with the progress and the result shown; the page reads at 390 px; the export downloads a zip.
import { strToU8, unzipSync, zipSync } from "fflate";
import { createUnit, expect, signedIn, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";
const NETWORK = "Rede Municipal de Vila Esperança";

const line = (cells: string[]) => `${cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(",")}\r\n`;

/** A delta package for one school: a school year, a class, a student and the student's enrollment. */
function oneRosterZip(schoolId: string, tag: string, email: string): Buffer {
  const files: Record<string, string[][]> = {
    "manifest.csv": [
      ["propertyName", "value"],
      ["manifest.version", "1.0"],
      ["oneroster.version", "1.2"],
      ["file.orgs", "delta"],
      ["file.academicSessions", "delta"],
      ["file.classes", "delta"],
      ["file.users", "delta"],
      ["file.roles", "delta"],
      ["file.enrollments", "delta"],
      ["source.systemName", "SIS de teste"],
      ["source.systemCode", "sis"],
    ],
    "orgs.csv": [["sourcedId", "status", "dateLastModified", "name", "type", "identifier", "parentSourcedId"], [schoolId, "active", "2027-01-10T00:00:00.000Z", `Escola OneRoster ${tag}`, "school", "", ""]],
    "academicSessions.csv": [
      ["sourcedId", "status", "dateLastModified", "title", "type", "startDate", "endDate", "parentSourcedId", "schoolYear"],
      [`SY-${tag}`, "active", "2027-01-10T00:00:00.000Z", "Ano letivo 2027", "schoolYear", "2027-02-01", "2027-12-10", "", "2027"],
    ],
    "classes.csv": [
      ["sourcedId", "status", "dateLastModified", "title", "grades", "courseSourcedId", "classCode", "classType", "location", "schoolSourcedId", "termSourcedIds", "subjects", "subjectCodes", "periods", "metadata.hub.turno"],
      [`CLS-${tag}`, "active", "2027-01-10T00:00:00.000Z", "6º ano A", "6", `CRS-${tag}`, "", "homeroom", "", schoolId, `SY-${tag}`, "Geografia", "", "", "tarde"],
    ],
    "users.csv": [
      ["sourcedId", "status", "dateLastModified", "enabledUser", "username", "userIds", "givenName", "familyName", "middleName", "identifier", "email", "sms", "phone", "agentSourcedIds", "grades", "password", "userMasterIdentifier", "preferredGivenName", "preferredMiddleName", "preferredFamilyName", "primaryOrgSourcedId", "pronouns"],
      [`STU-${tag}`, "active", "2027-01-10T00:00:00.000Z", "true", "", "", "Helena", `Arruda ${tag}`, "", "", email, "", "", "", "", "", "", "", "", "", schoolId, ""],
    ],
    "roles.csv": [
      ["sourcedId", "status", "dateLastModified", "userSourcedId", "roleType", "role", "beginDate", "endDate", "orgSourcedId", "userProfileSourcedId"],
      [`R-${tag}`, "active", "2027-01-10T00:00:00.000Z", `STU-${tag}`, "primary", "student", "", "", schoolId, ""],
    ],
    "enrollments.csv": [
      ["sourcedId", "status", "dateLastModified", "classSourcedId", "schoolSourcedId", "userSourcedId", "role", "primary", "beginDate", "endDate"],
      [`E-${tag}`, "active", "2027-01-10T00:00:00.000Z", `CLS-${tag}`, schoolId, `STU-${tag}`, "student", "false", "", ""],
    ],
  };
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, rows]) => [name, strToU8(rows.map(line).join(""))]))));
}

test("OneRoster 1.2 zip: a bad row imports nothing and is named in Portuguese; the fixed zip imports; the export downloads", async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page, MANAGER);
  const tag = Math.random().toString(36).slice(2, 8);
  const schoolId = await createUnit(page, `Escola OneRoster ${tag}`, "school", NETWORK);

  await page.goto(`/gestao/${schoolId}/importar`);
  await page.getByLabel("Tipo de arquivo").selectOption({ label: "OneRoster 1.2 (zip)" });
  const file = page.getByLabel("Arquivo ZIP", { exact: true });
  await file.setInputFiles({ name: "oneroster.zip", mimeType: "application/zip", buffer: oneRosterZip(schoolId, tag, "helena-sem-arroba") });
  await page.getByRole("button", { name: "Importar" }).click();
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText("Nada foi importado.");
  const rows = alert.getByRole("table", { name: "Linhas com problemas" }).getByRole("row");
  await expect(rows).toHaveText([/Arquivo e linha\s*Problemas/, /users\.csv, linha 2\s*coluna email: e-mail inválido/]);

  // Read at 390 px: no sideways scrolling with the error table shown.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The fixed file: checked, then imported, with the progress and the result.
  await file.setInputFiles({ name: "oneroster.zip", mimeType: "application/zip", buffer: oneRosterZip(schoolId, tag, `helena.${tag}@demo.hub.br`) });
  await page.getByRole("button", { name: "Verificar arquivo" }).click();
  await expect(page.getByRole("status")).toContainText("Arquivo válido: 6 linhas prontas para importar");
  await page.getByRole("button", { name: "Importar" }).click();
  await expect(page.getByRole("status")).toContainText("Importação concluída: 6 linhas importadas.", { timeout: 60_000 });

  // What it made is in the school's pages.
  await page.goto(`/gestao/${schoolId}/pessoas?q=Helena+Arruda`);
  await expect(page.getByRole("main").getByText(`Helena Arruda ${tag}`)).toBeVisible();

  // The manager's export of the school: a OneRoster zip holding the new class.
  await page.goto(`/gestao/${schoolId}/importar`);
  const link = page.getByRole("link", { name: "Exportar OneRoster 1.2 (zip)" });
  const href = (await link.getAttribute("href"))!;
  // The export reads the event log below its time-safe cut, which passes the import's commit within moments.
  await expect
    .poll(async () => {
      const download = await page.request.get(href);
      expect(download.status()).toBe(200);
      expect(download.headers()["content-type"]).toBe("application/zip");
      const files = unzipSync(new Uint8Array(await download.body()));
      expect(Object.keys(files)).toContain("manifest.csv");
      return new TextDecoder().decode(files["classes.csv"]);
    })
    .toContain("6º ano A");
});
