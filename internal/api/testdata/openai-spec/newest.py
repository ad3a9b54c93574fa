# The team's additions for GPT Image 2.5 (2026-09-08) and 2.6 (2026-11-04),
# which the public spec at f85dbe22 predates. Each added field or value is
# marked "x-easel-addition" with where it comes from, so the conformance
# proxy checks them and a reader can tell them from the official text.
#   quality xhigh, max (2.5); complexity, output_format gif and svg, GIF
#   frames and frame_duration_ms, and the edit's markup and markup_alpha
#   parts (2.6). Sources: gateway documentation and client changelogs, as
#   reported in issue #39; not OpenAI's own page.
import json, sys
s = json.load(open(sys.argv[1]))
sc = s['components']['schemas']
NOTE = 'GPT Image 2.5/2.6, as gateway documentation and client changelogs report them (issue #39)'

def add_enum(path, values):
    node = sc
    for k in path:
        node = node[k]
    enum = node['enum']
    for v in values:
        if v not in enum:
            enum.insert(len([x for x in enum if x is not None]), v)
    node['x-easel-addition'] = NOTE

for req in ('CreateImageRequest', 'CreateImageEditRequest'):
    add_enum([req, 'properties', 'quality'], ['xhigh', 'max'])
    add_enum([req, 'properties', 'output_format'], ['gif', 'svg'])
    p = sc[req]['properties']
    p['complexity'] = {'type': ['string', 'null'], 'enum': ['low', 'medium', 'high', None], 'x-easel-addition': NOTE,
                       'description': 'How much detail the model works in (GPT Image 2.6); default high.'}
    p['frames'] = {'type': ['integer', 'null'], 'minimum': 1, 'maximum': 24, 'x-easel-addition': NOTE,
                   'description': 'Frames of a GIF result, laid on one sheet whose long side stays within 3840 pixels.'}
    p['frame_duration_ms'] = {'type': ['integer', 'null'], 'minimum': 10, 'x-easel-addition': NOTE,
                              'description': 'How long each frame of a GIF result shows, in milliseconds.'}
p = sc['CreateImageEditRequest']['properties']
for name, what in (('markup', 'Marks drawn over the first image, of its size: what to change there.'),
                   ('markup_alpha', 'Where the marks cover, as a greyscale image of the first image\'s size.')):
    p[name] = {'type': 'string', 'format': 'binary', 'x-easel-addition': NOTE, 'description': what}
for resp in ('ImagesResponse', 'ImageGenCompletedEvent', 'ImageEditCompletedEvent', 'ImageGenPartialImageEvent', 'ImageEditPartialImageEvent'):
    add_enum([resp, 'properties', 'output_format'], ['gif', 'svg'])
    add_enum([resp, 'properties', 'quality'], ['xhigh', 'max'])
json.dump(s, open(sys.argv[2], 'w'))
