import type { BenchReport } from './report';
import { renderHtml } from './report-html';
import { renderMarkdown } from './report-markdown';

export type ReportFormat = 'md' | 'json' | 'html';

export const REPORT_FORMATS: readonly ReportFormat[] = ['md', 'json', 'html'];

/**
 * The report as text. JSON keeps the raw figures (Pass@1 as a fraction, costs unrounded, null for
 * an infinite CoP) for scripts and plots; Markdown and HTML round them as the paper does.
 */
export function renderReport(report: BenchReport, format: ReportFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'md':
      return renderMarkdown(report);
    case 'html':
      return renderHtml(report);
  }
}
