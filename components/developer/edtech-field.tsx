import { Field, inputClass } from "./field";

/** Which edtech a new tool or application belongs to: a select only for members of several. */
export function EdtechField({ edtechs, error }: { edtechs: Array<{ id: string; name: string }>; error?: string }) {
  if (edtechs.length <= 1) return <input type="hidden" name="edtechId" value={edtechs[0]?.id ?? ""} />;
  return (
    <Field id="edtechId" label="Edtech" required error={error}>
      {(aria) => (
        <select {...aria} name="edtechId" defaultValue={edtechs[0]?.id} className={inputClass}>
          {edtechs.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
