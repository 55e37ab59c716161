"use client";
import { startTransition, useActionState, type FormEvent } from "react";
import type { TFormState } from "@/lib/validations/form";

export type TFormAction<R> = (previous: TFormState<R>, formData: FormData) => Promise<TFormState<R>>;

/**
 * useActionState for forms whose inputs must survive an error. A plain <form action> makes
 * React reset every field (and the chosen file) once the action ends; submitting through
 * onSubmit keeps what the person typed, so only the messages change.
 */
export function useFormAction<R>(action: TFormAction<R>) {
  const [state, dispatch, pending] = useActionState<TFormState<R>, FormData>(action, { status: "idle" });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => dispatch(data));
  };
  const fieldError = (name: string): string | undefined => (state.status === "error" ? state.fieldErrors[name] : undefined);
  return { state, dispatch, pending, onSubmit, fieldError };
}
