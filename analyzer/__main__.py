from analyzer.cli import entry

entry()
