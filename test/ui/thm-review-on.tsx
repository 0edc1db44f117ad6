import { render } from 'ink-testing-library';
import { vi } from 'vitest';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { ThmScreen } from '../../source/ui/screens/thm-screen';
import { initialView } from '../../source/ui/view-state';

/** THM's review of `report` alone on the screen, waiting for the developer (`resolve` is a spy). */
export function reviewOn(report: ThmReport, width = 100, height = 30) {
  const resolve = vi.fn();
  const ui = render(
    <ThmScreen
      view={initialView()}
      prompt={{ kind: 'approve-tests', report, resolve }}
      width={width}
      height={height}
    />,
  );
  return { ui, resolve };
}
