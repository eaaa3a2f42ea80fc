"""Negotiations (/negotiation start | argue | discover | offer | import): the extension `exts.negotiation`.
`_views` renders the players' and the Director's views, the offer and each step's reply.
"""
