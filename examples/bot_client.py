"""Your own bot for `warcards serve`: plays a seat (the token `POST /tables/ID/seats/N` gave) at random.

    python examples/bot_client.py ws://127.0.0.1:8000 TABLE_ID TOKEN
"""

import json
import random
import sys

from websockets.sync.client import connect

url, table, token = sys.argv[1:4]
with connect(f"{url}/tables/{table}/ws") as ws:
    ws.send(json.dumps({"protocol": 1, "type": "hello", "token": token}))
    for message in map(json.loads, ws):
        if message["type"] == "end":
            sys.exit(print(message["result"]["reason"]))
        view = message.get("view") if message["type"] == "catchup" else message
        if isinstance(view, dict) and view.get("legal"):
            number = view["event"]["event_no"] if "event" in view else view["event_no"]
            act = {"type": "act", "id": str(number), "answers": number, "action": random.choice(view["legal"])["action"]}
            ws.send(json.dumps({"protocol": 1, **act}))
