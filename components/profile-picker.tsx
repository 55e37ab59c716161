import { SubmitButton } from "./submit-button";

export interface PickerOption {
  id: string;
  role: string;
  institution: string;
  /** Why this profile cannot be used here (e.g. the application is not enabled for its school). */
  unavailableReason?: string;
}

/**
 * Shared by sign-in and the OAuth authorization screen: one profile picker in the product. A
 * plain form posting to /perfil/escolher, so the first click is kept whether or not the page's
 * scripts have arrived. `returnTo` is this picker's own address, for a refused profile.
 */
export function ProfilePicker({ options, callbackUrl, returnTo, refused }: { options: PickerOption[]; callbackUrl: string; returnTo: string; refused?: boolean }) {
  return (
    <form method="post" action="/perfil/escolher">
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <input type="hidden" name="returnTo" value={returnTo} />
      {refused && (
        <p role="alert" className="mb-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          Não foi possível entrar com este perfil. Escolha um dos perfis abaixo.
        </p>
      )}
      <ul className="space-y-3">
        {options.map((o) => (
          <li key={o.id}>
            <SubmitButton
              name="profileId"
              value={o.id}
              disabled={Boolean(o.unavailableReason)}
              aria-describedby={o.unavailableReason ? `why-${o.id}` : undefined}
              pendingLabel={<ProfileLabel option={o} arrow="…" />}
              className="flex w-full items-center justify-between rounded-xl border border-slate-200 bg-white px-5 py-4 text-left shadow-sm hover:border-brand-600 disabled:cursor-not-allowed disabled:opacity-60"
            >
              <ProfileLabel option={o} arrow="→" />
            </SubmitButton>
          </li>
        ))}
      </ul>
    </form>
  );
}

function ProfileLabel({ option, arrow }: { option: PickerOption; arrow: string }) {
  return (
    <>
      <span>
        <span className="block font-semibold">{option.role}</span>
        <span className="block text-sm text-slate-600">{option.institution}</span>
        {option.unavailableReason && <span id={`why-${option.id}`} className="mt-1 block text-sm text-amber-700">{option.unavailableReason}</span>}
      </span>
      <span aria-hidden className="text-brand-600">{arrow}</span>
    </>
  );
}
