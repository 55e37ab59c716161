/** An auto-submitted launch form: LTI 1.0's signed launch, or LTI 1.3's login initiation. */
export interface TBuiltLaunch {
  /** The form's action: the tool's launch URL as registered. */
  action: string;
  /** Signed form fields, in order. */
  fields: Array<[string, string]>;
  /** For CSP form-action. */
  toolOrigin: string;
  toolTitle: string;
}

