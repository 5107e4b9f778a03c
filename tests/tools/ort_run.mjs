// Runs an ONNX model in ONNX Runtime (npm onnxruntime-node, found in the repository's node_modules)
// on inputs given as .npy files, and writes the outputs as .npy files. Used by every test that
// executes an exported model; tests/tools/ort.py wraps it for Python. See tests/tools/README.md.
//
//   node ort_run.mjs REQUEST.json      run; REQUEST = {"model": PATH,
//                                        "runs": [{"inputs": {NAME: NPY_PATH, ...}, "outputs_dir": DIR}, ...],
//                                        "optimize": true}
//                                       writes DIR/<k>.npy for the k-th output and prints
//                                       {"outputs": [NAME, ...], "runs": [{"files": [PATH, ...]}, ...]}
//   node ort_run.mjs --describe MODEL   prints {"inputs": [NAME, ...], "outputs": [NAME, ...]}
//   A request may instead be {"jobs": [REQUEST, ...]}: several models in one process; prints
//   {"jobs": [RESULT, ...]}.
//
// One session serves every run of a request (batch mode). Errors go to stderr with exit status 1.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ort from 'onnxruntime-node';

// numpy descr -> [ORT type, TypedArray]; float16 travels as its bits (Uint16Array), bool as bytes.
const DTYPES = {
  '<f4': ['float32', Float32Array],
  '<f8': ['float64', Float64Array],
  '<f2': ['float16', Uint16Array],
  '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array],
  '<i2': ['int16', Int16Array],
  '|i1': ['int8', Int8Array],
  '|u1': ['uint8', Uint8Array],
  '<u2': ['uint16', Uint16Array],
  '<u4': ['uint32', Uint32Array],
  '<u8': ['uint64', BigUint64Array],
  '|b1': ['bool', Uint8Array],
};
const DESCR_OF = Object.fromEntries(Object.entries(DTYPES).map(([d, [t]]) => [t, d]));

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || !fortran || shapeText === undefined) throw new Error(`${file}: cannot read the .npy header`);
  if (fortran === 'True') throw new Error(`${file}: Fortran-order arrays are not supported`);
  const entry = DTYPES[descr];
  if (!entry) throw new Error(`${file}: unsupported dtype ${descr}`);
  const dims = shapeText.split(',').map((s) => s.trim()).filter((s) => s.length).map(Number);
  const [type, Ctor] = entry;
  const count = dims.reduce((a, b) => a * b, 1);
  const bytes = buf.subarray(start + headerLen);
  // Copy into a fresh, aligned buffer for the typed array.
  const data = new Ctor(count);
  new Uint8Array(data.buffer).set(bytes.subarray(0, count * Ctor.BYTES_PER_ELEMENT));
  return new ort.Tensor(type, data, dims);
}

function writeNpy(file, tensor) {
  const descr = DESCR_OF[tensor.type];
  if (!descr) throw new Error(`output of type ${tensor.type} cannot be written as .npy`);
  const dims = tensor.dims;
  const shape = dims.length === 0 ? '()' : dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  let data = tensor.data;
  if (tensor.type === 'bool' && !(data instanceof Uint8Array)) data = Uint8Array.from(data, (v) => (v ? 1 : 0));
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'), body]));
}

async function session(model, optimize) {
  return ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: optimize === false ? 'disabled' : 'all',
    logSeverityLevel: 3, // errors only: warnings would clutter test output
  });
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--describe' && args.length === 2) {
    const s = await session(args[1], true);
    process.stdout.write(JSON.stringify({ inputs: s.inputNames, outputs: s.outputNames }) + '\n');
    return;
  }
  if (args.length !== 1) throw new Error('usage: ort_run.mjs REQUEST.json | --describe MODEL');
  const req = JSON.parse(fs.readFileSync(args[0], 'utf8'));
  const result = req.jobs ? { jobs: [] } : await runJob(req);
  for (const job of req.jobs || []) {
    try {
      result.jobs.push(await runJob(job));
    } catch (e) {
      throw new Error(`${job.model}: ${e && e.message ? e.message : e}`);
    }
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

async function runJob(req) {
  const s = await session(req.model, req.optimize);
  const result = { outputs: s.outputNames, runs: [] };
  for (const run of req.runs) {
    const feeds = {};
    for (const [name, file] of Object.entries(run.inputs)) feeds[name] = readNpy(file);
    const out = await s.run(feeds);
    fs.mkdirSync(run.outputs_dir, { recursive: true });
    const files = s.outputNames.map((name, k) => {
      const file = path.join(run.outputs_dir, `${k}.npy`);
      writeNpy(file, out[name]);
      return file;
    });
    result.runs.push({ files });
  }
  await s.release();
  return result;
}

main().catch((e) => {
  process.stderr.write(`ort_run: ${e && e.message ? e.message : e}\n`);
  process.exit(1);
});
