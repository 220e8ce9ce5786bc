"""The web app: play in the browser, alone, against the computer or online with friends.

``yatzy serve`` starts it (FastAPI and uvicorn); :func:`yatzy.web.app.create_app` builds
it over a game service. The HTTP and websocket contract is in ``docs/web.md``.
"""
