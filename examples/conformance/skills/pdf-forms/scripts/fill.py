"""Fill a markdown form template with the values of a JSON file."""
import json
import sys

template, data = sys.argv[1], sys.argv[2]
with open(template) as t, open(data) as d:
    text, values = t.read(), json.load(d)
for key, value in values.items():
    text = text.replace("{{" + key + "}}", str(value))
print(text)
