import { useEffect, useState } from 'react';

/**
 * The current time, re-read every `everyMs` while `active`: a live screen's elapsed time must move
 * while nothing else does (pytest collecting a large suite sends no event for half a minute).
 */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
