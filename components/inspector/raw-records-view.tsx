import { Section, TextBlock } from "./blocks";

/** One record an importer kept but did not understand (lib/importers/external/external-trace.ts `RawRecord`). */
interface RawRecordView {
  kind: string;
  name: string;
  data: unknown;
}

function isRawRecord(value: unknown): value is RawRecordView {
  return typeof value === "object" && value !== null && typeof (value as RawRecordView).kind === "string" && typeof (value as RawRecordView).name === "string";
}

/**
 * The records of an imported trace that the importer did not understand (a RETRIEVER span, an
 * unknown event), kept whole and shown raw as JSON text — never dropped. Reads `rawRecords` of a
 * step's observation state (lib/importers/external/map-trace.ts); renders nothing when there are none.
 */
export function RawRecordsView({ records }: { records: unknown }) {
  const list = Array.isArray(records) ? records.filter(isRawRecord) : [];
  if (list.length === 0) return null;
  return (
    <Section title={`Records kept raw (${list.length}) — the importer did not map them`}>
      <div className="space-y-1.5" data-testid="raw-records">
        {list.map((record, index) => (
          <details key={`${record.kind}:${record.name}:${index}`} className="rounded-md border border-slate-200 bg-slate-50 px-2 py-1.5 text-xs text-slate-700" data-testid="raw-record">
            <summary className="cursor-pointer select-none font-medium">
              <code className="font-mono">{record.kind}</code> {record.name}
            </summary>
            <TextBlock mono>{JSON.stringify(record.data, null, 2)}</TextBlock>
          </details>
        ))}
      </div>
    </Section>
  );
}
