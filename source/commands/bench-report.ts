import { fileToWrite } from '../engine/util/checked-paths';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildReport } from '../engine/bench/report';
import { REPORT_FORMATS, renderReport, type ReportFormat } from '../engine/bench/report-format';
import { TenetError } from '../engine/errors';
import { EXIT } from '../engine/exit-codes';

export interface BenchReportOptions {
  /** One folder per configuration, as `tenet bench run --out` made them; the report keeps their order. */
  runDirs: string[];
  format: ReportFormat;
  /** A file to write instead of stdout. */
  out?: string;
}

/**
 * `tenet bench report`: the figures of finished benchmark runs side by side, as the TENET paper
 * tabulates them. Exit code 0 when written, 2 for a folder that is not a run or a bad format.
 */
export async function benchReportCommand(options: BenchReportOptions): Promise<number> {
  if (!REPORT_FORMATS.includes(options.format)) {
    throw new TenetError(
      `Unknown report format ${String(options.format)}.`,
      `use --format ${REPORT_FORMATS.join(', ')}`,
    );
  }
  const { report, warnings } = buildReport(options.runDirs);
  for (const warning of warnings) process.stderr.write(`tenet: ${warning}\n`);
  const text = renderReport(report, options.format);
  if (options.out) {
    fileToWrite(options.out, '--out', { createFolder: true });
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, text);
    process.stderr.write(`wrote ${options.out}\n`);
  } else {
    process.stdout.write(text);
  }
  return EXIT.pass;
}
