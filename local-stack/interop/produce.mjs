// A producer of corrections that mvsink did not write: Confluent's JavaScript schema registry
// client and AvroSerializer (which encodes with avsc) over kafkajs. It registers the .avsc files'
// text as written (indented, with docs) under <topic>-value, writes updates and progress as
// mvsink's input contract says (docs: README, "Interop suite"), evolves the schema mid-stream and
// writes its own model of what the shard must hold.
//
// node produce.mjs --brokers H:P --registry URL --topic T --out model.json
//                  [--rounds 16] [--per-round 200] [--keys 300] [--seed 7]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import kafkajs from 'kafkajs';
import { SchemaRegistryClient, AvroSerializer, SerdeType } from '@confluentinc/schemaregistry';

const { Kafka, Partitioners, CompressionTypes, logLevel } = kafkajs;
const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    brokers: { type: 'string' }, registry: { type: 'string' }, topic: { type: 'string' },
    out: { type: 'string' }, rounds: { type: 'string', default: '16' },
    'per-round': { type: 'string', default: '200' }, keys: { type: 'string', default: '300' },
    seed: { type: 'string', default: '7' },
  },
});
for (const required of ['brokers', 'registry', 'topic', 'out']) {
  if (!args[required]) {
    throw new Error(`--${required} is required`);
  }
}
const ROUNDS = Number(args.rounds);
const PER_ROUND = Number(args['per-round']);
const KEYS = Number(args.keys);
/** Logical times: round r holds updates with times in [START + r * ROUND_MS, START + (r + 1) * ROUND_MS). */
const START = 1_000;
const ROUND_MS = 1_000;
const subject = `${args.topic}-value`;

// a small deterministic generator (mulberry32), so that a failure replays with the same --seed
let state = Number(args.seed) >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (n) => Math.floor(random() * n);

const registry = new SchemaRegistryClient({ baseURLs: [args.registry] });
const kafka = new Kafka({ clientId: 'mvsink-interop', brokers: [args.brokers], logLevel: logLevel.ERROR });
const producer = kafka.producer({
  createPartitioner: Partitioners.DefaultPartitioner,
  idempotent: true,
  maxInFlightRequests: 1,
});
const admin = kafka.admin();

/** One update as sent; rows are kept in their version 2 form (version 1 rows read with region "none"). */
const log = [];
/** The producer's model: multiplicity per row (canonical JSON of the version 2 form). */
const model = new Map();
/** Per key, the row it currently holds (as written), its multiplicity and the version it was written in. */
const current = new Map();
/** Per key, the time of its last update: a key's updates never go back in time (a view's never do). */
const lastTime = new Map();

function rowFor(id, version, round) {
  const customers = ['Ada', 'Zoë', 'José', '東京商事', 'O\'Brien "Ltd"', 'emoji 🚚'];
  const row = {
    id,
    customer: customers[pick(customers.length)],
    amount: pick(100_000) + [0.25, 0.5, 0.75][pick(3)],
    paid: random() < 0.5,
    note: random() < 0.3 ? null : `note ${pick(1000)}`,
    status: ['OPEN', 'SHIPPED', 'CLOSED'][pick(3)],
    tags: Array.from({ length: pick(4) }, () => `t${pick(20)}`),
    placed: 1_700_000_000_000 + round * 60_000 + pick(60_000),
  };
  if (version === 2) {
    row.region = ['eu', 'us', 'none'][pick(3)];
  }
  return row;
}

/** A row's JSON with its fields in one order: the model's key. */
const canonical = (row) => JSON.stringify(row, Object.keys(row).sort());

/** Version 2 form of a row of either version: what the shard's readers (into the latest version) see. */
const asV2 = (row) => ('region' in row ? row : { ...row, region: 'none' });

async function main() {
  await Promise.all([producer.connect(), admin.connect()]);
  const metadata = await admin.fetchTopicMetadata({ topics: [args.topic] });
  const partitions = metadata.topics[0].partitions.map((p) => p.partitionId).sort((a, b) => a - b);

  // version 1: compatibility first (Apicurio has no rule until one is set), then the file's text as written
  await registry.updateConfig(subject, { compatibility: 'BACKWARD' });
  const v1Text = readFileSync(join(here, 'row-v1.avsc'), 'utf8');
  const v1 = await registry.register(subject, { schemaType: 'AVRO', schema: v1Text });
  // AvroSerializer's autoRegisterSchemas derives a schema from the message (avsc Type.forValue:
  // records named Record1, numbers as int or float), never from a file: registering the text
  // through the client and serializing with that id is the library's way to use an .avsc file
  const oldWriter = new AvroSerializer(registry, SerdeType.VALUE, { useSchemaId: v1 });
  let newWriter = null;
  let v2 = null;

  for (let r = 0; r < ROUNDS; r++) {
    if (r === Math.floor(ROUNDS / 2)) {
      const v2Text = readFileSync(join(here, 'row-v2.avsc'), 'utf8');
      v2 = await registry.register(subject, { schemaType: 'AVRO', schema: v2Text });
      // a producer started after the new version: the subject's latest, looked up by the serializer
      newWriter = new AvroSerializer(registry, SerdeType.VALUE, { useLatestVersion: true });
    }
    const messages = [];
    for (let i = 0; i < PER_ROUND; i++) {
      const id = pick(KEYS);
      const time = Math.max(START + r * ROUND_MS + pick(ROUND_MS), lastTime.get(id) ?? 0);
      lastTime.set(id, time);
      messages.push(...(await updatesFor(id, time, r, oldWriter, newWriter)));
    }
    // updates of a round out of time order (within the round: all above the last progress)
    for (let i = messages.length - 1; i > 0; i--) {
      const j = pick(i + 1);
      [messages[i], messages[j]] = [messages[j], messages[i]];
    }
    await producer.send({
      topic: args.topic,
      messages,
      acks: -1,
      compression: r % 2 === 0 ? CompressionTypes.GZIP : CompressionTypes.None,
    });
    await progress(partitions, START + (r + 1) * ROUND_MS);
  }
  const end = START + ROUNDS * ROUND_MS;
  const rows = [...model.entries()].filter(([, n]) => n !== 0).map(([row, count]) => ({ row: JSON.parse(row), count }));
  writeFileSync(args.out, JSON.stringify({ subject, schemaIds: { v1, v2 }, partitions: partitions.length, end, rows, updates: log }));
  console.log(`produced ${log.length} updates in ${ROUNDS} rounds to ${partitions.length} partitions; `
    + `${rows.length} rows at the end; schema ids v1 ${v1}, v2 ${v2}`);
}

/** Kafka messages for one step on key {@code id} at {@code time}; the model follows. */
async function updatesFor(id, time, r, oldWriter, newWriter) {
  const held = current.get(id);
  const writer = (version) => (version === 2 ? newWriter : oldWriter);
  // after version 2, most new rows come from the new producer; the old one goes on too
  const version = newWriter && random() < 0.7 ? 2 : 1;
  const out = [];
  const emit = async (row, rowVersion, diff) => out.push(await update(writer(rowVersion), row, rowVersion, time, diff));
  const choice = random();
  if (!held) {
    const row = rowFor(id, version, r);
    const n = 1 + pick(3);
    if (choice < 0.15) {
      // inserted and retracted at the same time: cancels before any reader sees it
      await emit(row, version, n);
      await emit(row, version, -n);
      return out;
    }
    if (choice < 0.3 && n > 1) {
      // a multiplicity as separate +1 records (no diff header) at one time
      for (let k = 0; k < n; k++) {
        await emit(row, version, 1);
      }
    } else {
      await emit(row, version, n);
    }
    current.set(id, { row, version, n });
    return out;
  }
  if (choice < 0.25) {
    // delete; a version 1 row retracted by the new producer in its version 2 form (region "none")
    const retractAs = held.version === 1 && newWriter && random() < 0.5 ? 2 : held.version;
    await emit(retractAs === held.version ? held.row : asV2(held.row), retractAs, -held.n);
    current.delete(id);
  } else if (choice < 0.4) {
    // one more copy of the same row
    await emit(held.row, held.version, 1);
    held.n += 1;
  } else {
    // an update: retraction of the old row, insertion of the new one
    const row = rowFor(id, version, r);
    const n = 1 + pick(2);
    await emit(held.row, held.version, -held.n);
    await emit(row, version, n);
    current.set(id, { row, version, n });
  }
  return out;
}

async function update(writer, row, version, time, diff) {
  const headers = {};
  if (diff !== 1 || random() < 0.5) {
    headers['mvsink.diff'] = String(diff);
  }
  const value = await writer.serialize(args.topic, row);
  const key = canonical(asV2(row));
  model.set(key, (model.get(key) ?? 0) + diff);
  log.push({ row: asV2(row), time, diff, version });
  return { key: String(row.id), value, timestamp: String(time), headers };
}

/** Progress to every partition: no more updates below {@code upper}. */
async function progress(partitions, upper) {
  await producer.send({
    topic: args.topic,
    acks: -1,
    messages: partitions.map((partition) => ({
      partition, key: null, value: null, timestamp: String(upper), headers: { 'mvsink.upper': String(upper) },
    })),
  });
}

try {
  await main();
} finally {
  await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
}
