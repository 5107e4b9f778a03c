// Saves the graph ONNX Runtime actually runs (after its graph optimizations, e.g. LayerNorm and
// Gelu fusions) so tests can check which patterns it fused:
//   node ort_optimized.mjs MODEL.onnx OUT.onnx [basic|extended|all]
import * as ort from 'onnxruntime-node';

const [model, out, level] = process.argv.slice(2);
ort.InferenceSession.create(model, {
  executionProviders: ['cpu'],
  graphOptimizationLevel: level || 'extended',
  optimizedModelFilePath: out,
  logSeverityLevel: 3,
})
  .then((s) => s.release())
  .catch((e) => {
    process.stderr.write(`ort_optimized: ${e && e.message ? e.message : e}\n`);
    process.exit(1);
  });
