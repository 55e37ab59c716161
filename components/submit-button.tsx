"use client";
import { useEffect, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from "react";

/**
 * A form's submit button, enhanced when scripts run: once its form is on its way it shows
 * `pendingLabel` and the form's buttons stop taking clicks. It never stands between the click
 * and the post: before hydration it is a plain button of a plain form, and it is disabled only
 * after the browser has read the form's data (a disabled submitter would drop its name=value).
 */
export function SubmitButton({ children, pendingLabel, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { pendingLabel?: ReactNode }) {
  const ref = useRef<HTMLButtonElement>(null);
  const [state, setState] = useState<"idle" | "submitted" | "chosen">("idle");
  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    const onSubmit = (event: SubmitEvent) => setTimeout(() => setState(event.submitter === ref.current ? "chosen" : "submitted"), 0);
    // Back from the next page (bfcache): the form is usable again.
    const onPageShow = () => setState("idle");
    form.addEventListener("submit", onSubmit);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      form.removeEventListener("submit", onSubmit);
      window.removeEventListener("pageshow", onPageShow);
    };
  }, []);
  return (
    <button ref={ref} type="submit" {...props} disabled={props.disabled || state !== "idle"} aria-busy={state === "chosen" || undefined}>
      {state === "chosen" && pendingLabel ? pendingLabel : children}
    </button>
  );
}
