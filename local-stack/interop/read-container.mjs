// Decodes Avro object container files with avsc (a reader mvsink did not write) and prints, as one
// JSON document on stdout, each file's metadata (as UTF-8 strings), writer schema and records.
//
// node read-container.mjs [--row row.avsc] FILE...
//   --row: read the records' "row" field into this schema (Avro schema resolution, done by avsc),
//          e.g. a part written with an older version of the row into the latest.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import avro from 'avsc';

const { values: args, positionals: files } = parseArgs({
  options: { row: { type: 'string' } },
  allowPositionals: true,
});
const rowSchema = args.row ? JSON.parse(readFileSync(args.row, 'utf8')) : null;

/** The writer schema with its "row" field's type replaced by the reader's row schema. */
function readerSchema(writer) {
  if (rowSchema == null || writer.type !== 'record' || !writer.fields.some((f) => f.name === 'row')) {
    return undefined;
  }
  return { ...writer, fields: writer.fields.map((f) => (f.name === 'row' ? { ...f, type: rowSchema } : f)) };
}

function decode(file) {
  return new Promise((resolve, reject) => {
    const result = { file, meta: {}, schema: null, records: [] };
    const header = avro.extractFileHeader(file, { decode: false });
    if (header == null) {
      reject(new Error(`${file}: not an Avro object container file`));
      return;
    }
    const writer = JSON.parse(header.meta['avro.schema'].toString('utf8'));
    avro.createFileDecoder(file, { readerSchema: readerSchema(writer) })
      .on('metadata', (type, codec, meta) => {
        result.schema = writer;
        for (const [key, value] of Object.entries(meta.meta)) {
          if (key !== 'avro.schema') {
            result.meta[key] = value.toString('utf8');
          }
        }
      })
      .on('data', (record) => result.records.push(record))
      .on('error', (e) => reject(new Error(`${file}: ${e.message}`)))
      .on('end', () => resolve(result));
  });
}

const decoded = [];
for (const file of files) {
  decoded.push(await decode(file));
}
process.stdout.write(JSON.stringify(decoded));
