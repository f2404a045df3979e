/**
 * Jest's node environment, with the typed-array constructors of the process itself. onnxruntime-node's native
 * code builds its output tensors from the process's Float32Array, which a test context's own Float32Array does not
 * recognise (`A float32 tensor's data must be type of function Float32Array()`); sharing the constructors makes the
 * model run in a test exactly as it runs in the service.
 */
const { TestEnvironment } = require('jest-environment-node');

const TYPED_ARRAYS = [
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Int16Array',
  'Int32Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Uint16Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
];

class NodeEnvironmentWithNativeArrays extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}

module.exports = NodeEnvironmentWithNativeArrays;
