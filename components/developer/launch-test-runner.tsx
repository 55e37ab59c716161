"use client";
import type { TLaunchTestReport } from "@/lib/server/developer/launch-test/run-launch-test";
import { FormMessage, primaryButton } from "./field";
import { LaunchTestReport } from "./launch-test-report";
import { useFormAction, type TFormAction } from "./use-form-action";

export function LaunchTestRunner({ action, toolId }: { action: TFormAction<TLaunchTestReport>; toolId: string }) {
  const { state, pending, onSubmit } = useFormAction(action);
  return (
    <div className="space-y-6">
      <form onSubmit={onSubmit} aria-label="Testar lançamento">
        <input type="hidden" name="toolId" value={toolId} />
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Enviando lançamentos…" : state.status === "success" ? "Executar de novo" : "Executar teste"}
        </button>
      </form>
      {state.status === "error" && <FormMessage state={state} />}
      {state.status === "success" && <LaunchTestReport report={state.result} />}
    </div>
  );
}
