print("wlslider-bench")
