// The quiz page's share of a drive's exam-room rules (decision 035): copying, pasting and the context menu turned
// off, and full screen asked for, with each exit told to the server for the invigilator. A page can only ask: the
// browser lets the student leave full screen at any time, and a changed page can skip all of this, so the server
// counts what the page reports and never trusts it for more.
import { useCallback, useEffect, useRef, useState } from "react";
import { call } from "../../lib/api.ts";

export interface ExamRoomRules {
  fullScreen: boolean;
  blockCopyPaste: boolean;
}

const BLOCKED_EVENTS = ["copy", "cut", "paste", "contextmenu", "dragstart", "drop"] as const;

/** Asks the browser for full screen; a refusal (no gesture, a browser without it) leaves the page as it is. */
export function requestFullScreen(): void {
  void document.documentElement.requestFullscreen?.().catch(() => undefined);
}

export function useExamRoom(rules: ExamRoomRules | null, running: boolean, token: string) {
  const [inFullScreen, setInFullScreen] = useState(
    () => typeof document !== "undefined" && !!document.fullscreenElement,
  );
  const [exits, setExits] = useState(0);
  const wasInFullScreen = useRef(inFullScreen);

  useEffect(() => {
    if (!running || !rules?.blockCopyPaste) return;
    const block = (event: Event) => event.preventDefault();
    for (const type of BLOCKED_EVENTS) document.addEventListener(type, block);
    return () => {
      for (const type of BLOCKED_EVENTS) document.removeEventListener(type, block);
    };
  }, [running, rules?.blockCopyPaste]);

  useEffect(() => {
    if (!rules?.fullScreen) return;
    const changed = () => {
      const now = !!document.fullscreenElement;
      setInFullScreen(now);
      if (wasInFullScreen.current && !now && running) {
        setExits((count) => count + 1);
        void call("reportFullScreenExit", { token }).catch(() => undefined);
      }
      wasInFullScreen.current = now;
    };
    document.addEventListener("fullscreenchange", changed);
    return () => document.removeEventListener("fullscreenchange", changed);
  }, [rules?.fullScreen, running, token]);

  const enterFullScreen = useCallback(() => requestFullScreen(), []);
  return { asksFullScreen: rules?.fullScreen === true, inFullScreen, exits, enterFullScreen };
}
