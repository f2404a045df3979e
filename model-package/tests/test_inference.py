"""
The inference code against the one contract (shared/contracts/image-embedding.v1.json), with a small real
TorchScript model built here (a seeded convolution, pooling and projection to 32 dimensions): every example of the
contract, the response schema, the pinned weights, batches. Run with Debian's python3 and python3-torch:

    /usr/bin/python3 -m unittest discover -s model-package/tests
"""
import base64
import hashlib
import io
import json
import math
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CONTRACT_PATH = os.path.join(ROOT, "shared", "contracts", "image-embedding.v1.json")
os.environ["EMBEDDING_CONTRACT"] = CONTRACT_PATH
sys.path.insert(0, os.path.join(ROOT, "model-package", "code"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
from PIL import Image  # noqa: E402

import inference  # noqa: E402

with open(CONTRACT_PATH, encoding="utf-8") as handle:
    CONTRACT = json.load(handle)

from tiny_model import DIMENSIONS, TinyEncoder  # noqa: E402


def build_package(directory, tamper=False):
    torch.manual_seed(7)
    scripted = torch.jit.script(TinyEncoder().eval())
    weights = os.path.join(directory, "model.pt")
    scripted.save(weights)
    with open(weights, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    manifest = {
        "id": "tiny-test-encoder",
        "weights": "model.pt",
        "sha256": ("0" * 64) if tamper else digest,
        "dimensions": DIMENSIONS,
        "input": {"size": 64, "mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25]},
    }
    with open(os.path.join(directory, "manifest.json"), "w", encoding="utf-8") as handle:
        json.dump(manifest, handle)
    return digest


def png_b64(size, colour):
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def body_of(example):
    return example["raw"].encode("utf-8") if "raw" in example else json.dumps(example["body"]).encode("utf-8")


class ContractTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp()
        cls.digest = build_package(cls.directory)
        cls.model = inference.model_fn(cls.directory)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory)

    def assert_response_schema(self, body, vectors):
        self.assertEqual(set(body) - {"embedding", "embeddings"}, {"model"})
        self.assertEqual(body["model"], {"id": "tiny-test-encoder", "version": f"sha256:{self.digest}", "dimensions": DIMENSIONS})
        rows = [body["embedding"]] if "embedding" in body else body["embeddings"]
        self.assertEqual(len(rows), vectors)
        for row in rows:
            self.assertEqual(len(row), DIMENSIONS)
            self.assertTrue(all(isinstance(v, float) and math.isfinite(v) for v in row))
            self.assertAlmostEqual(math.sqrt(sum(v * v for v in row)), 1.0, places=5)

    def test_every_valid_example_is_answered_in_the_response_schema(self):
        for example in CONTRACT["examples"]["valid"]:
            with self.subTest(example["name"]):
                status, body = inference.invoke(self.model, body_of(example), example.get("contentType", "application/json"))
                self.assertEqual(status, 200, body)
                self.assertIn(example["shape"], body)
                self.assert_response_schema(body, example["vectors"])
                json.dumps(body, allow_nan=False)

    def test_every_invalid_example_gets_its_code_and_status(self):
        for example in CONTRACT["examples"]["invalid"]:
            with self.subTest(example["name"]):
                status, body = inference.invoke(self.model, body_of(example), example.get("contentType", "application/json"))
                self.assertEqual(body["error"]["code"], example["code"], body)
                self.assertEqual(status, CONTRACT["errors"]["codes"][example["code"]])
                self.assertEqual(set(body["error"]), {"code", "message"})

    def test_a_batch_answers_each_image_as_it_would_be_answered_alone_in_order(self):
        red, blue = png_b64((40, 30), (220, 20, 20)), png_b64((30, 40), (20, 20, 220))
        _, batch = inference.invoke(self.model, json.dumps({"inputs": [{"image_b64": red}, {"image_b64": blue}]}), "application/json")
        _, alone_red = inference.invoke(self.model, json.dumps({"inputs": {"image_b64": red}}), "application/json")
        _, alone_blue = inference.invoke(self.model, json.dumps({"inputs": {"image_b64": blue}}), "application/json")
        for got, expected in zip(batch["embeddings"], [alone_red["embedding"], alone_blue["embedding"]]):
            self.assertTrue(all(abs(a - b) < 1e-5 for a, b in zip(got, expected)))
        self.assertGreater(max(abs(a - b) for a, b in zip(alone_red["embedding"], alone_blue["embedding"])), 1e-3)

    def test_exactly_max_batch_images_are_accepted(self):
        image = png_b64((16, 16), (0, 128, 0))
        status, body = inference.invoke(self.model, json.dumps({"inputs": [{"image_b64": image}] * CONTRACT["limits"]["maxBatch"]}), "application/json")
        self.assertEqual(status, 200)
        self.assertEqual(len(body["embeddings"]), CONTRACT["limits"]["maxBatch"])

    def test_accept_other_than_json_is_406(self):
        status, body = inference.invoke(self.model, json.dumps({"inputs": {"image_b64": png_b64((16, 16), (1, 2, 3))}}), "application/json", "text/csv")
        self.assertEqual((status, body["error"]["code"]), (406, "not_acceptable"))

    def test_the_toolkit_hooks_answer_the_same_json(self):
        data = inference.input_fn(json.dumps({"inputs": {"image_b64": png_b64((20, 20), (9, 9, 9))}}), "application/json")
        payload, content_type = inference.output_fn(inference.predict_fn(data, self.model), "application/json")
        self.assertEqual(content_type, "application/json")
        self.assert_response_schema(json.loads(payload), 1)
        with self.assertRaises(inference.ContractError) as refused:
            inference.input_fn(b"{}", "application/json")
        self.assertEqual(refused.exception.status, 400)


class PinnedWeightsTest(unittest.TestCase):
    def test_weights_that_are_not_the_manifests_are_refused_at_load(self):
        directory = tempfile.mkdtemp()
        try:
            build_package(directory, tamper=True)
            with self.assertRaisesRegex(ValueError, "the manifest pins"):
                inference.model_fn(directory)
        finally:
            shutil.rmtree(directory)


if __name__ == "__main__":
    unittest.main()
