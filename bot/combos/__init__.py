"""Commander Spellbook's combos: the bulk export imported into the card cache, and a deck's combos as facts."""
