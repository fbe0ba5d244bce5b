from warcards.cli.main import app

app()
