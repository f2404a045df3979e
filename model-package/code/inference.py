"""
Inference code of the image-embedding endpoint: the SageMaker model package carries it (code/inference.py) next to
its weights, for the SageMaker PyTorch inference container. It serves the contract in contract.json (a copy of
shared/contracts/image-embedding.v1.json made when the package is built) and nothing else, whatever model the
package carries:

  manifest.json   {"id", "weights": "model.pt" | "model.onnx", "sha256", "dimensions",
                   "input": {"size", "mean", "std"}}
  model.pt        TorchScript: float32 [N, 3, size, size] -> [N, dimensions]
  model.onnx      the same signature (served with onnxruntime, when the container has it)

The weights are pinned: model_fn refuses weights whose SHA-256 is not the manifest's. Errors are the contract's:
status and {"error": {"code", "message"}}; SageMaker hands them to the caller as a 424 ModelError.
"""
import base64
import binascii
import hashlib
import io
import json
import math
import os

import numpy as np
from PIL import Image

CONTRACT_FILE = os.environ.get("EMBEDDING_CONTRACT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "contract.json"))
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="

with open(CONTRACT_FILE, encoding="utf-8") as handle:
    CONTRACT = json.load(handle)
LIMITS = CONTRACT["limits"]
STATUS_OF = CONTRACT["errors"]["codes"]


class ContractError(Exception):
    """A refusal the contract names: its code gives the status."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.status = STATUS_OF[code]

    def body(self):
        return {"error": {"code": self.code, "message": str(self)}}


class LoadedModel:
    """The weights of the package, checked against the manifest, behind one `embed` of a float32 batch."""

    def __init__(self, model_dir):
        with open(os.path.join(model_dir, "manifest.json"), encoding="utf-8") as handle:
            manifest = json.load(handle)
        path = os.path.join(model_dir, manifest["weights"])
        digest = sha256_of(path)
        if digest != manifest["sha256"]:
            raise ValueError(f"weights {manifest['weights']} have sha256 {digest}, the manifest pins {manifest['sha256']}")
        self.id = manifest["id"]
        self.version = f"sha256:{digest}"
        self.dimensions = int(manifest["dimensions"])
        self.size = int(manifest["input"]["size"])
        self.mean = np.asarray(manifest["input"]["mean"], dtype=np.float32).reshape(3, 1, 1)
        self.std = np.asarray(manifest["input"]["std"], dtype=np.float32).reshape(3, 1, 1)
        if path.endswith(".onnx"):
            import onnxruntime  # only in containers that serve ONNX

            session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
            name = session.get_inputs()[0].name
            self._run = lambda batch: session.run(None, {name: batch})[0]
        else:
            import torch

            torch.set_num_threads(int(os.environ.get("EMBEDDING_THREADS", "1")))
            module = torch.jit.load(path, map_location="cpu").eval()

            def run(batch):
                with torch.no_grad():
                    return module(torch.from_numpy(batch)).numpy()

            self._run = run

    def pixels(self, image):
        resized = image.resize((self.size, self.size), Image.BICUBIC)
        array = np.asarray(resized, dtype=np.float32).transpose(2, 0, 1) / 255.0
        return (array - self.mean) / self.std

    def embed(self, images):
        batch = np.stack([self.pixels(image) for image in images]).astype(np.float32)
        out = np.asarray(self._run(batch), dtype=np.float64).reshape(len(images), -1)
        if out.shape[1] != self.dimensions:
            raise ContractError("inference_failed", f"the model gave {out.shape[1]} values, its manifest says {self.dimensions}")
        vectors = []
        for row in out:
            norm = math.sqrt(float(np.dot(row, row)))
            if not math.isfinite(norm) or norm == 0:
                raise ContractError("inference_failed", "the model gave a vector that cannot be normalised")
            vectors.append([float(v) / norm for v in row])
        return vectors


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def media_type(header):
    return (header or "").split(";")[0].strip().lower()


def parse_request(body, content_type):
    """The request's images (PIL, RGB) and whether it was a batch; ContractError for anything the contract refuses."""
    if media_type(content_type) != CONTRACT["transport"]["contentType"]:
        raise ContractError("unsupported_media_type", f"Content-Type must be application/json, got {content_type or 'none'}")
    if isinstance(body, str):
        body = body.encode("utf-8")
    if len(body) > LIMITS["maxRequestBytes"]:
        raise ContractError("payload_too_large", f"the body is {len(body)} bytes; at most {LIMITS['maxRequestBytes']}")
    try:
        request = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ContractError("invalid_json", "the body is not UTF-8 JSON") from None
    if not isinstance(request, dict) or set(request) != {"inputs"}:
        raise ContractError("invalid_request", 'the body must be {"inputs": {"image_b64": ...}} or {"inputs": [{"image_b64": ...}, ...]}')
    inputs = request["inputs"]
    batch = isinstance(inputs, list)
    items = inputs if batch else [inputs]
    if batch and len(items) == 0:
        raise ContractError("invalid_request", "inputs must hold at least one image")
    if batch and len(items) > LIMITS["maxBatch"]:
        raise ContractError("batch_too_large", f"at most {LIMITS['maxBatch']} images per request; got {len(items)}")
    images = []
    for index, item in enumerate(items):
        where = f"inputs[{index}]" if batch else "inputs"
        if not isinstance(item, dict) or set(item) != {"image_b64"} or not isinstance(item["image_b64"], str):
            raise ContractError("invalid_request", f'{where} must be {{"image_b64": "<base64 PNG>"}}')
        images.append(decode_png(item["image_b64"], where))
    return images, batch


def decode_png(text, where):
    if len(text) < 4 or len(text) % 4 != 0 or any(c not in BASE64 for c in text) or "=" in text.rstrip("="):
        raise ContractError("image_unreadable", f"{where}.image_b64 is not standard padded base64")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ContractError("image_unreadable", f"{where}.image_b64 is not standard padded base64") from None
    if not data.startswith(PNG_SIGNATURE):
        raise ContractError("image_unreadable", f"{where}.image_b64 is not a PNG")
    try:
        image = Image.open(io.BytesIO(data))
        width, height = image.size
        if not (LIMITS["minImageSide"] <= min(width, height) and max(width, height) <= LIMITS["maxImageSide"]):
            raise ContractError(
                "image_size_unsupported",
                f"{where} is {width} x {height}; each side must be {LIMITS['minImageSide']} to {LIMITS['maxImageSide']} pixels",
            )
        image.load()
    except ContractError:
        raise
    except Exception:  # PIL raises many kinds for a broken file
        raise ContractError("image_unreadable", f"{where}.image_b64 is not a readable PNG") from None
    rgba = image.convert("RGBA")
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return Image.alpha_composite(white, rgba).convert("RGB")


def respond(model, images, batch):
    vectors = model.embed(images)
    described = {"id": model.id, "version": model.version, "dimensions": model.dimensions}
    return {"embeddings": vectors, "model": described} if batch else {"embedding": vectors[0], "model": described}


def invoke(model, body, content_type, accept="application/json"):
    """The whole contract in one call: (status, body as a dict). What the container and the tests both run."""
    try:
        if media_type(accept) not in CONTRACT["transport"]["accept"] and accept:
            raise ContractError("not_acceptable", f"Accept must be application/json, got {accept}")
        images, batch = parse_request(body, content_type)
        return 200, respond(model, images, batch)
    except ContractError as error:
        return error.status, error.body()


# ---- The SageMaker PyTorch inference toolkit's hooks ------------------------------------------------------------


def _toolkit_error(error):
    """The toolkit passes the status of its own error class on; without the toolkit (tests) the error stays ours."""
    try:
        from sagemaker_inference.errors import GenericInferenceToolkitError
    except ImportError:
        return error
    return GenericInferenceToolkitError(error.status, json.dumps(error.body()))


def model_fn(model_dir, context=None):
    return LoadedModel(model_dir)


def input_fn(request_body, request_content_type, context=None):
    try:
        return parse_request(request_body, request_content_type)
    except ContractError as error:
        raise _toolkit_error(error) from None


def predict_fn(data, model, context=None):
    images, batch = data
    try:
        return respond(model, images, batch)
    except ContractError as error:
        raise _toolkit_error(error) from None


def output_fn(prediction, accept, context=None):
    if accept and media_type(accept) not in CONTRACT["transport"]["accept"]:
        raise _toolkit_error(ContractError("not_acceptable", f"Accept must be application/json, got {accept}"))
    return json.dumps(prediction), "application/json"
