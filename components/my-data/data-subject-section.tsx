import { ATTRIBUTE_LABEL, CHANNEL_LABEL, formatDateTime, RULE_LABEL } from "@/components/management/labels";
import { ROLE_LABEL } from "@/lib/labels";
import type { TDataSubject } from "@/lib/server/privacy/get-my-data";
import type { TPartnerSharing } from "@/lib/server/privacy/list-partners-for-profile";

const KIND_LABEL = { application: "Aplicativo", tool: "Ferramenta" } as const;

// The access log names what left in each channel's own terms: the Data API's attributes, the LTI
// launch's lis_person_* fields, the id token's claims.
const CHANNEL_FIELD_LABEL: Record<string, string> = {
  ...ATTRIBUTE_LABEL,
  lis_person_name_full: "Nome (lis_person_name_full)",
  lis_person_contact_email_primary: "E-mail (lis_person_contact_email_primary)",
  sub: "Identificador (sub)",
};

const attributeLabel = (name: string) => CHANNEL_FIELD_LABEL[name] ?? name;

function PartnerItem({ partner }: { partner: TPartnerSharing }) {
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4">
      <p className="font-medium">
        {partner.name} <span className="text-sm font-normal text-slate-600">· {KIND_LABEL[partner.kind]} de {partner.edtechName}</span>
      </p>
      {partner.attributes.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">Não recebe nenhum dado pessoal seu (só o identificador e o perfil).</p>
      ) : (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label={`Dados recebidos por ${partner.name}`}>
          {partner.attributes.map((a) => (
            <li key={a.attribute} className={`rounded-full px-3 py-1 text-sm ${a.treatment === "anonimizado" ? "bg-amber-50 text-amber-900" : "bg-brand-50 text-brand-900"}`}>
              {attributeLabel(a.attribute)}: {RULE_LABEL[a.treatment].toLowerCase()}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** One person's part of "Meus dados": partners per profile, then the recent reads. */
export function DataSubjectSection({ subject, headingId }: { subject: TDataSubject; headingId: string }) {
  const who = subject.relation === "self" ? "seus dados" : `dados de ${subject.name}`;
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-xl font-bold">
        {subject.relation === "self" ? `Você — ${subject.name}` : `${subject.name}${subject.kinship ? ` (você é ${subject.kinship})` : ""}`}
      </h2>
      <h3 className="mt-4 text-lg font-semibold">Quem recebe {who}</h3>
      {subject.profiles.length === 0 && <p className="mt-2 text-slate-700">Nenhum perfil em escola: nenhum parceiro recebe {who}.</p>}
      {subject.profiles.map((profile) => (
        <div key={profile.profileId} className="mt-3">
          <h4 className="font-medium text-slate-800">
            {ROLE_LABEL[profile.role]} · {profile.institution.name}
          </h4>
          {profile.partners.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">Nenhum parceiro recebe dados deste perfil.</p>
          ) : (
            <ul className="mt-2 space-y-2" aria-label={`Parceiros de ${ROLE_LABEL[profile.role]} · ${profile.institution.name}`}>
              {profile.partners.map((partner) => (
                <PartnerItem key={`${partner.kind}:${partner.id}`} partner={partner} />
              ))}
            </ul>
          )}
        </div>
      ))}
      <h3 className="mt-6 text-lg font-semibold">Leituras recentes de {who}</h3>
      {subject.reads.length === 0 ? (
        <p role="status" className="mt-2 rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">
          Nenhum parceiro leu {who} até agora.
        </p>
      ) : (
        <ol className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label={`Leituras recentes de ${who}`}>
          {subject.reads.map((read) => (
            <li key={read.id} className="p-3 text-sm">
              <p>
                <span className="font-medium">{read.partner.name}</span>
                {read.partner.deleted && <span className="text-slate-600"> (excluído)</span>}
                {read.partner.edtechName && <span className="text-slate-600"> · {read.partner.edtechName}</span>}
              </p>
              <p className="text-slate-700">
                {CHANNEL_LABEL[read.channel]} · <time dateTime={read.at.toISOString()}>{formatDateTime(read.at)}</time> · {read.institutionName}
              </p>
              <p className="text-slate-700">
                Dados: {read.attributes.length > 0 ? read.attributes.map(attributeLabel).join(", ") : "nenhum dado pessoal"}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
