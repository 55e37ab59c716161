"use client";
import { useSession } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

/**
 * Changes the session's profile, then goes to `destination`. The switch counts only when the
 * session that comes back has that profile (the server refuses a profile that is not the
 * person's, and next-auth's update() resolves to nothing when it could not run), so a failed
 * switch never continues as the previous profile.
 */
export function useProfileSwitch(): { switchTo: (profileId: string, destination: string) => void; pending: boolean; failed: boolean } {
  const { update } = useSession();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [failed, setFailed] = useState(false);
  const switchTo = (profileId: string, destination: string) =>
    start(async () => {
      setFailed(false);
      const session = await update({ profileId });
      if (session?.profileId !== profileId) {
        setFailed(true);
        return;
      }
      router.push(destination);
      router.refresh();
    });
  return { switchTo, pending, failed };
}
