"use client";
import Link from "@/components/link";
import { useEffect, useRef, useState } from "react";
import { LOGO_ACCEPT, LOGO_MAX_BYTES, LOGO_TRANSPORT_LIMIT_BYTES } from "@/lib/validations/developer";
import { EdtechField } from "./edtech-field";
import { Field, FormMessage, inputClass, primaryButton } from "./field";
import { ShownOnceSecret } from "./shown-once-secret";
import { ToolCardPreview } from "./tool-card-preview";
import { useFormAction, type TFormAction } from "./use-form-action";

export interface TToolFormValues {
  title: string;
  shortDescription: string;
  longDescription: string;
  siteUrl: string;
  launchUrl: string;
  consumerKey: string;
}

export interface TToolFormResult {
  toolId: string;
  generatedSecret: string | null;
}

interface ToolFormProps {
  mode: "create" | "edit";
  action: TFormAction<TToolFormResult>;
  /** Create: the edtechs the person may register for (a select when more than one). */
  edtechs?: Array<{ id: string; name: string }>;
  toolId?: string;
  initial?: TToolFormValues;
  currentLogoUrl?: string | null;
}

const EMPTY: TToolFormValues = { title: "", shortDescription: "", longDescription: "", siteUrl: "", launchUrl: "", consumerKey: "" };

export function ToolForm({ mode, action, edtechs = [], toolId, initial = EMPTY, currentLogoUrl = null }: ToolFormProps) {
  const { state, pending, onSubmit, fieldError } = useFormAction(action);
  const [title, setTitle] = useState(initial.title);
  const [shortDescription, setShortDescription] = useState(initial.shortDescription);
  const [logoPreview, setLogoPreview] = useState<string | null>(null);
  const [logoClientError, setLogoClientError] = useState<string | undefined>();
  const formRef = useRef<HTMLFormElement>(null);

  // After a successful edit, drop what must not be sent twice or linger in the page: the chosen
  // file and any typed secret.
  useEffect(() => {
    if (mode !== "edit" || state.status !== "success" || !formRef.current) return;
    for (const name of ["logo", "sharedSecret"]) {
      const input = formRef.current.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = "";
    }
    const generate = formRef.current.elements.namedItem("generateNewSecret");
    if (generate instanceof HTMLInputElement) generate.checked = false;
    setLogoPreview(null);
  }, [mode, state]);

  // An object URL holds the file in memory until revoked.
  useEffect(
    () => () => {
      if (logoPreview) URL.revokeObjectURL(logoPreview);
    },
    [logoPreview],
  );

  if (mode === "create" && state.status === "success") {
    return (
      <div className="space-y-4 rounded-xl border border-emerald-200 bg-white p-6 shadow-sm">
        <h2 className="text-lg font-semibold text-emerald-800">Ferramenta cadastrada</h2>
        <p className="text-sm text-slate-700">{state.message}</p>
        {state.result.generatedSecret && <ShownOnceSecret label="Segredo compartilhado (shared secret)" value={state.result.generatedSecret} />}
        <Link href={`/desenvolvedor/ferramentas/${state.result.toolId}`} className={`inline-block ${primaryButton}`}>
          Ver a ferramenta
        </Link>
      </div>
    );
  }

  const values = state.status === "error" ? { ...initial, ...state.values } : initial;
  const error = (name: string) => (name === "logo" ? (logoClientError ?? fieldError(name)) : fieldError(name));

  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
      <form ref={formRef} onSubmit={onSubmit} encType="multipart/form-data" noValidate className="space-y-5" aria-label={mode === "create" ? "Nova ferramenta" : "Editar ferramenta"}>
        {toolId && <input type="hidden" name="toolId" value={toolId} />}
        {mode === "create" && <EdtechField edtechs={edtechs} error={error("edtechId")} />}

        <fieldset className="space-y-4">
          <legend className="text-base font-semibold">Dados da galeria</legend>
          <Field id="title" label="Título" required error={error("title")} hint="Até 80 caracteres. É o nome no cartão da galeria.">
            {(aria) => <input {...aria} name="title" defaultValue={values.title} maxLength={80} onChange={(e) => setTitle(e.target.value)} className={inputClass} />}
          </Field>
          <Field id="shortDescription" label="Descrição curta" required error={error("shortDescription")} hint="Até 200 caracteres, mostrada no cartão.">
            {(aria) => (
              <textarea {...aria} name="shortDescription" rows={2} maxLength={200} defaultValue={values.shortDescription} onChange={(e) => setShortDescription(e.target.value)} className={inputClass} />
            )}
          </Field>
          <Field id="longDescription" label="Descrição longa" required error={error("longDescription")} hint="Mostrada na página de detalhes da ferramenta.">
            {(aria) => <textarea {...aria} name="longDescription" rows={5} maxLength={5000} defaultValue={values.longDescription} className={inputClass} />}
          </Field>
          <Field id="siteUrl" label="Site" required error={error("siteUrl")} hint="Endereço https:// da ferramenta ou da edtech.">
            {(aria) => <input {...aria} name="siteUrl" type="url" inputMode="url" defaultValue={values.siteUrl} placeholder="https://" className={inputClass} />}
          </Field>
          <Field
            id="logo"
            label={mode === "create" ? "Logo" : "Novo logo"}
            required={mode === "create"}
            error={error("logo")}
            hint={`PNG, JPEG ou SVG, até ${LOGO_MAX_BYTES / 1024} KiB, de preferência quadrado.${mode === "edit" ? " Deixe vazio para manter o atual." : ""} SVGs passam por uma limpeza rigorosa: scripts e referências externas são recusados.`}
          >
            {(aria) => (
              <input
                {...aria}
                name="logo"
                type="file"
                accept={LOGO_ACCEPT}
                className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-700"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  setLogoClientError(undefined);
                  setLogoPreview(null); // the cleanup effect revokes the previous object URL
                  if (!file) return;
                  // Bigger files would be cut off by the server before any message could be given.
                  if (file.size > LOGO_TRANSPORT_LIMIT_BYTES) {
                    setLogoClientError(`O logo tem ${Math.ceil(file.size / 1024)} KiB; o limite é ${LOGO_MAX_BYTES / 1024} KiB.`);
                    e.target.value = "";
                    return;
                  }
                  setLogoPreview(URL.createObjectURL(file));
                }}
              />
            )}
          </Field>
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="text-base font-semibold">Credenciais de lançamento LTI 1.0</legend>
          <Field id="launchUrl" label="Endereço de lançamento" required error={error("launchUrl")} hint="Recebe o POST do lançamento. https:// (http:// só para localhost).">
            {(aria) => <input {...aria} name="launchUrl" type="url" inputMode="url" defaultValue={values.launchUrl} placeholder="https://" className={inputClass} />}
          </Field>
          <Field id="consumerKey" label="Consumer key (oauth_consumer_key)" required error={error("consumerKey")} hint="Gerada pela sua ferramenta para identificar o Hub.">
            {(aria) => <input {...aria} name="consumerKey" defaultValue={values.consumerKey} autoComplete="off" className={inputClass} />}
          </Field>
          <Field
            id="sharedSecret"
            label={mode === "create" ? "Segredo compartilhado (shared secret)" : "Novo segredo compartilhado"}
            error={error("sharedSecret")}
            hint={
              mode === "create"
                ? "Ao menos 16 caracteres. Deixe em branco para o Hub gerar um segredo forte, mostrado uma única vez. Fica criptografado e nunca mais é exibido."
                : "O segredo atual está guardado criptografado e não é exibido. Preencha só para substituí-lo."
            }
          >
            {(aria) => <input {...aria} name="sharedSecret" type="password" autoComplete="new-password" className={inputClass} />}
          </Field>
          {mode === "edit" && (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="generateNewSecret" value="1" className="size-4" />
              Gerar um novo segredo forte (mostrado uma única vez)
            </label>
          )}
        </fieldset>

        <FormMessage state={state.status === "success" ? { status: "success", message: state.message } : state} />
        {mode === "edit" && state.status === "success" && state.result.generatedSecret && (
          <ShownOnceSecret label="Novo segredo compartilhado (shared secret)" value={state.result.generatedSecret} />
        )}
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Salvando…" : mode === "create" ? "Cadastrar ferramenta" : "Salvar alterações"}
        </button>
      </form>
      <aside className="lg:pt-8">
        <ToolCardPreview
          title={title}
          shortDescription={shortDescription}
          logoUrl={logoPreview ?? currentLogoUrl}
          caption={mode === "edit" ? "Prévia com as alterações, antes de salvar" : "Prévia do cartão na galeria"}
        />
      </aside>
    </div>
  );
}
