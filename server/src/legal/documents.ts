// The Terms of Service and Privacy Policy as served by GET /api/legal/<document>. An operator publishes their own
// text by putting Markdown in DATA_DIR/legal/terms.md or privacy.md (read on each request, so an edit shows at
// once, without a restart); otherwise the built-in text (defaults.ts) is served. In both, {{legalName}},
// {{address}}, {{gstin}}, {{supportEmail}}, {{supportPhone}}, {{supportHours}} and {{publicUrl}} are filled from
// the configuration, so the default names the operator and an operator's file may too.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import type { LegalDocumentDto, LegalDocumentKind } from '../contract';
import type { Logger } from '../logger';
import { DEFAULT_PRIVACY, DEFAULT_TERMS } from './defaults';

/** The largest operator file served; a bigger one is ignored (and logged) rather than sent to every visitor. */
export const MAX_LEGAL_FILE_BYTES = 256 * 1024;

const DOCUMENTS: Record<LegalDocumentKind, { title: string; text: string }> = {
  terms: { title: 'Terms of Service', text: DEFAULT_TERMS },
  privacy: { title: 'Privacy Policy', text: DEFAULT_PRIVACY },
};

/** Where the operator's own text of `document` lives. */
export function legalFilePath(dataDir: string, document: LegalDocumentKind): string {
  return join(dataDir, 'legal', `${document}.md`);
}

/** Fills the {{name}} fields from the configuration; unknown names are left as written. */
export function fillOperatorFields(text: string, config: Pick<Config, 'operator' | 'publicUrl'>): string {
  const { operator } = config;
  const fields: Record<string, string> = {
    legalName: operator.legalName,
    address: operator.address,
    gstin: operator.gstin,
    supportEmail: operator.supportEmail,
    supportPhone: operator.supportPhone,
    supportHours: operator.supportHours,
    publicUrl: config.publicUrl,
  };
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => fields[name] ?? whole);
}

/** The operator's file when there is a usable one, else undefined (missing, unreadable or too large). */
async function operatorFile(
  path: string,
  logger: Pick<Logger, 'warn'>,
): Promise<{ text: string; changedAt: number } | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    if (info.size > MAX_LEGAL_FILE_BYTES) {
      logger.warn(
        { path, bytes: info.size },
        `legal text larger than ${MAX_LEGAL_FILE_BYTES} bytes is ignored; the built-in text is served`,
      );
      return undefined;
    }
    return { text: await readFile(path, 'utf8'), changedAt: info.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      logger.warn({ path, err }, 'legal text unreadable; the built-in text is served');
    }
    return undefined;
  }
}

/** The document as the browser gets it. */
export async function loadLegalDocument(props: {
  config: Pick<Config, 'dataDir' | 'operator' | 'publicUrl'>;
  logger: Pick<Logger, 'warn'>;
  document: LegalDocumentKind;
}): Promise<LegalDocumentDto> {
  const { config, document } = props;
  const own = await operatorFile(legalFilePath(config.dataDir, document), props.logger);
  return {
    document,
    title: DOCUMENTS[document].title,
    markdown: fillOperatorFields(own?.text ?? DOCUMENTS[document].text, config),
    source: own ? 'operator' : 'default',
    updatedAt: own ? new Date(Math.floor(own.changedAt)).toISOString() : null,
  };
}
