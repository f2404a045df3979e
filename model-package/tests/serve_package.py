"""
Loads an unpacked model package the way the container does (code/inference.py, its own code/contract.json) and
answers every example of the contract it carries; prints one JSON line per example: name, status, error code or
the response's shape and model.

    /usr/bin/python3 model-package/tests/serve_package.py <unpacked package dir>
"""
import json
import os
import sys

package = os.path.abspath(sys.argv[1])
os.environ.pop("EMBEDDING_CONTRACT", None)
sys.path.insert(0, os.path.join(package, "code"))

import inference  # noqa: E402

model = inference.model_fn(package)
for kind in ("valid", "invalid"):
    for example in inference.CONTRACT["examples"][kind]:
        body = example["raw"].encode() if "raw" in example else json.dumps(example["body"]).encode()
        status, answer = inference.invoke(model, body, example.get("contentType", "application/json"))
        print(json.dumps({"name": example["name"], "status": status, "code": answer.get("error", {}).get("code"), "shape": sorted(answer), "model": answer.get("model")}))
