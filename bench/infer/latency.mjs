// ONNX Runtime latency of pairs of models on the same input, interleaved so that machine noise hits
// both sides alike. bench/infer/run.py drives it.
//
//   node latency.mjs REQUEST.json     REQUEST = {"pairs": [{"name": N, "a": PATH, "b": PATH}, ...],
//                                                "shape": [1, 3, 224, 224], "warmup": W, "runs": R,
//                                                "threads": T}
//   prints one JSON line per pair: {"name": N, "a_ms": median, "b_ms": median,
//                                   "a_min": min, "b_min": min}
import * as fs from 'node:fs';
import * as ort from 'onnxruntime-node';

const req = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const count = req.shape.reduce((a, b) => a * b, 1);
const data = new Float32Array(count);
let seed = 12345;
for (let i = 0; i < count; ++i) {  // deterministic uniform [-1, 1): same input for both files
  seed = (seed * 1103515245 + 12345) % 2147483648;
  data[i] = seed / 1073741824 - 1;
}
const opts = {intraOpNumThreads: req.threads, interOpNumThreads: 1, graphOptimizationLevel: 'all',
              executionMode: 'sequential'};

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

for (const p of req.pairs) {
  const sa = await ort.InferenceSession.create(p.a, opts);
  const sb = await ort.InferenceSession.create(p.b, opts);
  const feed = (s) => ({[s.inputNames[0]]: new ort.Tensor('float32', data, req.shape)});
  const fa = feed(sa), fb = feed(sb);
  for (let i = 0; i < req.warmup; ++i) { await sa.run(fa); await sb.run(fb); }
  const ta = [], tb = [];
  for (let i = 0; i < req.runs; ++i) {
    // alternate which side goes first
    const order = i % 2 ? [[sb, fb, tb], [sa, fa, ta]] : [[sa, fa, ta], [sb, fb, tb]];
    for (const [s, f, t] of order) {
      const t0 = process.hrtime.bigint();
      await s.run(f);
      t.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  console.log(JSON.stringify({name: p.name, a_ms: median(ta), b_ms: median(tb), a_min: Math.min(...ta),
                              b_min: Math.min(...tb)}));
  await sa.release();
  await sb.release();
}
