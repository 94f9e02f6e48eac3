// The few pieces of ONNX's protobuf encoding that the tests' tiny BERT and the score bench's
// BERT-base-shaped model are written with (no Python, no onnx package): the wire format, a
// float tensor and a graph input/output's type.

// A field is a varint key (number << 3 | wire type) and its value.
function varint(v: number | bigint): number[] {
  let x = BigInt.asUintN(64, BigInt(v))
  const out: number[] = []
  do {
    const b = Number(x & 0x7fn)
    x >>= 7n
    out.push(x ? b | 0x80 : b)
  } while (x)
  return out
}

/** A varint field. */
export function pbInt(field: number, v: number): Uint8Array {
  return Uint8Array.from([...varint(field << 3), ...varint(v)])
}

/** A length-delimited field (a message, bytes). */
export function pbBytes(field: number, payload: Uint8Array): Uint8Array {
  return pbMsg([Uint8Array.from([...varint((field << 3) | 2), ...varint(payload.length)]), payload])
}

/** A string field. */
export function pbStr(field: number, s: string): Uint8Array {
  return pbBytes(field, new TextEncoder().encode(s))
}

/** The fields of a message, one after the other. */
export function pbMsg(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** A float32 TensorProto (little-endian raw data, as ONNX wants). */
export function floatTensor(name: string, dims: number[], data: Float32Array): Uint8Array {
  return pbMsg([...dims.map((x) => pbInt(1, x)), pbInt(2, 1), pbStr(8, name), pbBytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength))])
}

/** A graph input or output: its name, element type (1 float, 7 int64) and shape (numbers or symbolic names). */
export function valueInfo(name: string, elemType: number, shape: Array<string | number>): Uint8Array {
  const dims = shape.map((x) => pbBytes(1, pbMsg([typeof x === 'number' ? pbInt(1, x) : pbStr(2, x)])))
  return pbMsg([pbStr(1, name), pbBytes(2, pbMsg([pbBytes(1, pbMsg([pbInt(1, elemType), pbBytes(2, pbMsg(dims))]))]))])
}
