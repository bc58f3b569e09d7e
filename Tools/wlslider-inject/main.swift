print("wlslider-inject")
